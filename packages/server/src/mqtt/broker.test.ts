import { deviceTopic, encodePayload } from '@flowbox/shared';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/harness.ts';
import { reading } from '../telemetry/testing.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './broker.ts';

/*
 * The embedded broker's telemetry short cut (docs/telemetry.md): a device's telemetry goes to ingest
 * and is acknowledged once taken; it is not routed on to subscribers, while other device messages
 * are.
 */
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

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
      async (identity, secret) =>
        identity.serial === 'FB-BROKER-1' && secret === 'device-secret' ? 'ok' : 'unknown',
      async (topic, payload) => {
        taken.push(`${topic} ${payload.toString('utf8').length}`);
      },
    );
    url = `mqtt://127.0.0.1:${port}`;
  });
  afterAll(() => broker.close());

  it('hands telemetry to ingest, acknowledges it, and routes it to no subscriber; other messages go on', async () => {
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
      await server.subscribeAsync(['flowbox/+/telemetry', 'flowbox/+/state'], { qos: 1 });
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
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toEqual([deviceTopic('FB-BROKER-1', 'state')]);
    } finally {
      await device.endAsync(true);
      await server.endAsync(true);
    }
  });
});
