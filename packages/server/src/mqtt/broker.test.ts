import { bootstrapUsername, deviceTopic, encodePayload } from '@flowbox/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../flowboxes/testing.ts';
import { freePort } from '../test/harness.ts';
import { reading } from '../telemetry/testing.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';

/*
 * The embedded broker's short cut (docs/telemetry.md): a device's telemetry, states, events and acks
 * go to ingest and are acknowledged once taken (stored); they are not routed on to subscribers, while
 * presence (whose last will the broker itself publishes) is.
 */
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The identities this broker knows, by user name, with their secrets. */
const secrets = new Map([
  ['FB-BROKER-1', 'device-secret'],
  ['FB-VICTIM', 'victim-secret'],
  ['FB-ATTACKER', 'attacker-secret'],
  [bootstrapUsername('FB-LABEL'), 'factory-secret'],
]);
const usernameOf = (identity: { role: string; serial: string }) =>
  identity.role === 'device' ? identity.serial : bootstrapUsername(identity.serial);

describe('the embedded broker', () => {
  let broker: EmbeddedBroker;
  let url: string;
  const taken: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    broker = await startEmbeddedBroker(
      port,
      '127.0.0.1',
      quiet,
      async (identity, secret) => (secrets.get(usernameOf(identity)) === secret ? 'ok' : 'unknown'),
      async (topic, payload) => {
        taken.push(`${topic} ${payload.toString('utf8').length}`);
      },
    );
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(() => broker.close());

  it('hands telemetry, states, events and acks to ingest, acknowledges them, and routes them to no subscriber; presence goes on', async () => {
    const server = await mqtt.connectAsync(url, { ...broker.internalCredentials, reconnectPeriod: 0 });
    const device = await mqtt.connectAsync(url, {
      username: 'FB-BROKER-1',
      password: 'device-secret',
      clientId: 'FB-BROKER-1',
      reconnectPeriod: 0,
    });
    try {
      const received: string[] = [];
      server.on('message', (topic) => received.push(topic));
      await server.subscribeAsync(['flowbox/+/telemetry', 'flowbox/+/state', 'flowbox/+/presence'], {
        qos: 1,
      });
      // QoS 1: publishAsync resolves on the PUBACK.
      await device.publishAsync(
        deviceTopic('FB-BROKER-1', 'telemetry'),
        encodePayload(reading(1, new Date())),
        {
          qos: 1,
        },
      );
      expect(taken).toHaveLength(1);
      await device.publishAsync(deviceTopic('FB-BROKER-1', 'state'), '{}', { qos: 1 });
      expect(taken).toHaveLength(2);
      await device.publishAsync(deviceTopic('FB-BROKER-1', 'presence'), '{}', { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toEqual([deviceTopic('FB-BROKER-1', 'presence')]);
    } finally {
      await device.endAsync(true);
      await server.endAsync(true);
    }
  });

  describe('a client id other than the user name', () => {
    const sign = (username: string, clientId: string, clean = true) =>
      mqtt.connectAsync(url, {
        username,
        password: secrets.get(username),
        clientId,
        clean,
        reconnectPeriod: 0,
        connectTimeout: 3000,
      });

    /**
     * The victim, its own commands subscribed in a persistent session, and every close it sees.
     * Listening before the CONNACK: a queued command comes right behind it.
     */
    async function victimOnline() {
      const victim = mqtt.connect(url, {
        username: 'FB-VICTIM',
        password: secrets.get('FB-VICTIM'),
        clientId: 'FB-VICTIM',
        clean: false,
        reconnectPeriod: 0,
      });
      const closes: string[] = [];
      const commands: string[] = [];
      victim.on('message', (_topic, payload) => commands.push(payload.toString('utf8')));
      await new Promise((resolve, reject) => victim.once('connect', resolve).once('error', reject));
      victim.on('close', () => closes.push('close'));
      await victim.subscribeAsync(deviceTopic('FB-VICTIM', 'commands'), { qos: 1 });
      return { victim, closes, commands };
    }

    /** Sends a command as the server does (its own internal client), acknowledged by the broker. */
    async function sendCommand(server: MqttClient, id: string) {
      await server.publishAsync(deviceTopic('FB-VICTIM', 'commands'), id, { qos: 1 });
    }

    it('is refused for a paired device taking another serial: the victim stays and keeps its queued commands', async () => {
      const server = await mqtt.connectAsync(url, { ...broker.internalCredentials, reconnectPeriod: 0 });
      const refusedBefore = broker.counters.refused_client_id;
      let { victim, closes, commands } = await victimOnline();
      try {
        await expect(sign('FB-ATTACKER', 'FB-VICTIM', false)).rejects.toThrow(/Identifier rejected/);
        expect(broker.counters.refused_client_id).toBe(refusedBefore + 1);
        // Still the victim's session: its command reaches it, on the same connection.
        await sendCommand(server, 'close_valve-1');
        await until(() => commands.includes('close_valve-1'));
        expect(closes).toEqual([]);

        // Offline, the victim's persistent session queues its commands; the attacker cannot take them.
        await victim.endAsync();
        await sendCommand(server, 'open_valve-2');
        await expect(sign('FB-ATTACKER', 'FB-VICTIM', false)).rejects.toThrow(/Identifier rejected/);
        ({ victim, closes, commands } = await victimOnline());
        await until(() => commands.includes('open_valve-2'));
        expect(broker.counters.refused_client_id).toBe(refusedBefore + 2);
      } finally {
        await victim.endAsync(true);
        await server.endAsync(true);
      }
    });

    it('is refused for a bootstrap identity taking a paired serial', async () => {
      const server = await mqtt.connectAsync(url, { ...broker.internalCredentials, reconnectPeriod: 0 });
      const { victim, closes, commands } = await victimOnline();
      try {
        await expect(sign(bootstrapUsername('FB-LABEL'), 'FB-VICTIM')).rejects.toThrow(/Identifier rejected/);
        await expect(sign(bootstrapUsername('FB-LABEL'), 'FB-LABEL')).rejects.toThrow(/Identifier rejected/);
        await sendCommand(server, 'autotest-3');
        await until(() => commands.includes('autotest-3'));
        expect(closes).toEqual([]);
        // Its own user name is its client id.
        const bootstrap = await sign(bootstrapUsername('FB-LABEL'), bootstrapUsername('FB-LABEL'));
        await bootstrap.endAsync();
      } finally {
        await victim.endAsync(true);
        await server.endAsync(true);
      }
    });

    it('is refused when empty', async () => {
      const refusedBefore = broker.counters.refused_client_id;
      await expect(sign('FB-ATTACKER', '')).rejects.toThrow(/Identifier rejected/);
      expect(broker.counters.refused_client_id).toBe(refusedBefore + 1);
    });
  });
});
