import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Aedes, Client } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import {
  allDevicesFilter,
  bootstrapUsername,
  deviceTopic,
  encodePayload,
  identityFromUsername,
  mayPublish,
  maySubscribe,
  parseDeviceMessage,
  PROTOCOL_VERSION,
  type DeviceIdentity,
  type PairingResponse,
} from '@flowbox/shared';
import { createDevice, CredentialsRefusedError, PairingRefusedError } from './device.ts';
import { DeviceObserver, randomSecret, startAedes, uniqueSerial, type TestBroker } from './test-helpers.ts';

// Not a serial (it holds a dot), so no device can claim the server's identity (docs/protocol.md).
const SERVER = 'flowbox.server';
const zone = { profile: 'office' as const, timezone: 'Europe/Paris', water_points: [] };

/**
 * Pairing and revocation as docs/protocol.md describes them, against an Aedes broker that
 * authenticates each identity and applies the shared ACL, with a minimal server answering pairing
 * requests the way an operator validating (or refusing) would.
 */
describe('a simulated flowbox with credentials', () => {
  let broker: TestBroker & { broker: Aedes };
  let server: MqttClient;
  const secrets = new Map<string, string>();
  const identities = new WeakMap<Client, DeviceIdentity>();
  const clients = new Map<string, Client>();
  /** What the operator decides for each serial asking to be paired. */
  const decisions = new Map<string, 'accept' | 'refuse'>();

  beforeAll(async () => {
    const serverSecret = randomSecret();
    secrets.set(SERVER, serverSecret);
    broker = await startAedes({
      authenticate: (client, username, password, done) => {
        const identity = identityFromUsername(username);
        const known = username !== undefined && secrets.get(username) === password?.toString();
        if (!known || (!identity && username !== SERVER)) {
          done(Object.assign(new Error('bad user name or password'), { returnCode: 4 as const }), false);
          return;
        }
        if (identity) identities.set(client, identity);
        done(null, true);
      },
      authorizePublish: (client, packet, callback) => {
        const identity = client && identities.get(client);
        callback(
          !client || !identity || mayPublish(identity, packet.topic) ? null : new Error('foreign topic'),
        );
      },
      authorizeSubscribe: (client, subscription, callback) => {
        const identity = identities.get(client);
        if (identity && !maySubscribe(identity, subscription.topic)) callback(new Error('foreign topic'));
        else callback(null, subscription);
      },
    });
    broker.broker.on('client', (client) => clients.set(client.id, client));
    server = await mqtt.connectAsync(broker.url, {
      username: SERVER,
      password: serverSecret,
      reconnectPeriod: 0,
    });
    await server.subscribeAsync(allDevicesFilter('pairing/request'), { qos: 1 });
    server.on('message', (topic, payload) => {
      const parsed = parseDeviceMessage(topic, payload);
      if (!parsed.ok || parsed.value.kind !== 'pairing/request') return;
      const { serial, message } = parsed.value;
      const answer = (response: PairingResponse) =>
        void server.publishAsync(deviceTopic(serial, 'pairing/response'), encodePayload(response), {
          qos: 1,
        });
      answer({ v: PROTOCOL_VERSION, request_id: message.request_id, result: 'pending' });
      if (decisions.get(serial) === 'refuse') {
        answer({
          v: PROTOCOL_VERSION,
          request_id: message.request_id,
          result: 'refused',
          reason: 'refused_by_operator',
        });
        return;
      }
      const password = randomSecret();
      secrets.set(serial, password);
      answer({
        v: PROTOCOL_VERSION,
        request_id: message.request_id,
        result: 'accepted',
        username: serial,
        password,
        issued_at: new Date().toISOString(),
      });
    });
  });
  afterAll(async () => {
    await server.endAsync();
    await broker.close();
  });

  function factoryDevice(serial: string) {
    const factorySecret = randomSecret();
    secrets.set(bootstrapUsername(serial), factorySecret);
    return createDevice({
      serial,
      brokerUrl: broker.url,
      factorySecret,
      zone,
      cleanSession: true,
      reconnectPeriodMs: 50,
    });
  }

  it('pairs over the air, then runs with the credentials it was handed', async () => {
    const serial = uniqueSerial('pair');
    const device = factoryDevice(serial);
    const steps: string[] = [];
    device.on('pairing', (step) => steps.push(step));
    const credentials = await device.pair();
    expect(steps).toEqual(['pending', 'accepted']);
    expect(credentials).toEqual({ username: serial, password: secrets.get(serial) });
    const observer = await DeviceObserver.watch(broker.url, serial, Date.now, {
      username: SERVER,
      password: secrets.get(SERVER),
    });
    await device.start();
    await observer.waitFor('state', () => observer.of('state').length > 0);
    await device.stop();
    await observer.close();
  });

  it('stays unpaired when the operator refuses', async () => {
    const serial = uniqueSerial('refused');
    decisions.set(serial, 'refuse');
    const device = factoryDevice(serial);
    await expect(device.pair()).rejects.toEqual(new PairingRefusedError('refused_by_operator'));
    expect(device.currentCredentials).toBeUndefined();
  });

  it('is refused with a wrong password', async () => {
    const serial = uniqueSerial('wrong');
    secrets.set(serial, randomSecret());
    const device = createDevice({
      serial,
      brokerUrl: broker.url,
      zone,
      credentials: { username: serial, password: randomSecret() },
    });
    await expect(device.start()).rejects.toBeInstanceOf(CredentialsRefusedError);
    expect(device.currentCredentials).toBeUndefined();
  });

  it('forgets its credentials once unpaired: the broker refuses it from then on', async () => {
    const serial = uniqueSerial('unpair');
    const device = factoryDevice(serial);
    await device.pair();
    await device.start();
    const revoked = new Promise<void>((resolve) => device.once('revoked', () => resolve()));
    // Unpairing: the secret is deleted and the live session closed; the device's reconnection fails.
    secrets.delete(serial);
    clients.get(serial)?.close();
    await revoked;
    expect(device.currentCredentials).toBeUndefined();
    expect(device.connected).toBe(false);
  });
});
