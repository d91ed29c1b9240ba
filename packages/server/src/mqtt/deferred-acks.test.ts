import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type Client } from 'aedes';
import mqtt, { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deferAcks } from './deferred-acks.ts';

/*
 * deferAcks patches mqtt.js internals (deferred-acks.ts). These tests fail when an mqtt.js upgrade
 * moves what the patch relies on: the version it was written for, the private `_sendPacket`, and
 * the PUBACK of a QoS 1 message sent through it once `handleMessage` calls back.
 */

const require = createRequire(import.meta.url);
const PATCHED_FOR = '5.16.0';

let broker: Aedes;
let server: Server;
let url: string;
const acked: number[] = [];
let subscriberId = '';
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await Aedes.createBroker();
  // Each PUBACK the subscriber under test sent the broker, by the message's payload (the broker
  // keeps the message it acknowledges only in a session that is not clean).
  broker.on('ack', (packet, client: Client) => {
    if (client?.id === subscriberId && packet && 'payload' in packet)
      acked.push(Number(String(packet.payload)));
  });
  server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  acked.length = 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function connect(clientId: string, clean = true): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, { clientId, clean, reconnectPeriod: 0 });
  clients.push(client);
  return client;
}

let subscribers = 0;
/** The client under test, in a session of its own each test. */
function connectSubscriber(): Promise<MqttClient> {
  subscriberId = `deferring-${++subscribers}`;
  return connect(subscriberId, false);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A promise settled from outside. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

describe('the deferred PUBACK patch of mqtt.js', () => {
  it('finds the mqtt.js it was written for', () => {
    const installed = JSON.parse(readFileSync(require.resolve('mqtt/package.json'), 'utf8')) as {
      version: string;
    };
    // A new version: read lib/handlers/publish.js and lib/client.js again, then change PATCHED_FOR.
    expect(installed.version).toBe(PATCHED_FOR);
    const sendPacket = (MqttClient.prototype as unknown as { _sendPacket?: unknown })._sendPacket;
    expect(typeof sendPacket).toBe('function');
    // (packet, cb, cbStorePut, noStore): the patch calls back `cb` itself and passes the rest on.
    expect((sendPacket as (...args: unknown[]) => void).length).toBe(4);
  });

  it('holds each PUBACK until its message is committed, while the next messages are read', async () => {
    const subscriber = await connectSubscriber();
    const defer = deferAcks(subscriber);
    expect(defer).not.toBeNull();
    const commits = new Map<number, ReturnType<typeof gate>>();
    subscriber.handleMessage = (packet, done) => {
      const n = Number(String(packet.payload));
      const commit = gate();
      commits.set(n, commit);
      defer!(packet.messageId!, commit.promise);
      done();
    };
    await subscriber.subscribeAsync('deferred/test', { qos: 1 });
    const publisher = await connect('publisher');
    for (const n of [1, 2, 3]) await publisher.publishAsync('deferred/test', String(n), { qos: 1 });

    // All three read though none is acknowledged: mqtt.js did not wait for the PUBACK to read on.
    await until(() => commits.size === 3, 'the three messages');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acked).toEqual([]);

    commits.get(2)!.open();
    await until(() => acked.length === 1, 'the PUBACK of message 2');
    expect(acked).toEqual([2]);
    commits.get(1)!.open();
    commits.get(3)!.open();
    await until(() => acked.length === 3, 'the other PUBACKs');
    expect(acked.sort()).toEqual([1, 2, 3]);
  });

  it('never acknowledges a message whose commit failed', async () => {
    const subscriber = await connectSubscriber();
    const defer = deferAcks(subscriber)!;
    const commits: ReturnType<typeof gate>[] = [];
    subscriber.handleMessage = (packet, done) => {
      const commit = gate();
      commits.push(commit);
      defer(packet.messageId!, commit.promise);
      done();
    };
    await subscriber.subscribeAsync('deferred/test', { qos: 1 });
    const publisher = await connect('publisher');
    await publisher.publishAsync('deferred/test', '7', { qos: 1 });
    await publisher.publishAsync('deferred/test', '8', { qos: 1 });
    await until(() => commits.length === 2, 'the two messages');

    commits[0]!.fail(new Error('not stored'));
    commits[1]!.open();
    await until(() => acked.length === 1, 'the PUBACK of message 8');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acked).toEqual([8]);
  });

  it('leaves the PUBACK of a message it was not asked to defer to mqtt.js', async () => {
    const subscriber = await connectSubscriber();
    expect(deferAcks(subscriber)).not.toBeNull();
    await subscriber.subscribeAsync('deferred/test', { qos: 1 });
    const publisher = await connect('publisher');
    await publisher.publishAsync('deferred/test', '5', { qos: 1 });
    await until(() => acked.length === 1, 'the PUBACK of message 5');
    expect(acked).toEqual([5]);
  });
});
