import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { encodePayload } from '@flowbox/shared';
import { TelemetryHooks } from '../telemetry/hooks.ts';
import { createZones, pairDirectly, reading } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import { FlowboxIngest } from './ingest.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('ingest of bad device messages', () => {
  it('counts every dropped message but logs a device at most once a minute', async () => {
    const logged: object[] = [];
    const ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      { warn: (entry) => logged.push(entry) },
      180,
    );
    const garbage = new TextEncoder().encode('{ not json');
    for (let i = 0; i < 5; i++) await ingest.handle('flowbox/NOISY-1/state', garbage);
    await ingest.handle('flowbox/OTHER-1/state', garbage);
    expect(ingest.counters.dropped.not_json).toBe(6);
    expect(logged).toEqual([
      { serial: 'NOISY-1', reason: 'not_json', detail: '' },
      { serial: 'OTHER-1', reason: 'not_json', detail: '' },
    ]);
    t.clock.advance(61_000);
    await ingest.handle('flowbox/NOISY-1/state', garbage);
    expect(logged).toHaveLength(3);
  });

  it('drops, without failing, topics outside the protocol and messages from devices not paired', async () => {
    const ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      { warn: () => {} },
      180,
    );
    await ingest.handle('flowbox/NOISY-1/secrets', new TextEncoder().encode('{}'));
    await ingest.handle(
      'flowbox/UNPAIRED-1/presence',
      new TextEncoder().encode(JSON.stringify({ v: 1, at: new Date().toISOString(), status: 'online' })),
    );
    expect(ingest.counters.dropped.unknown_topic).toBe(1);
    expect(ingest.counters.dropped.unknown_device).toBe(1);
    expect(ingest.counters.applied).toBe(0);
  });
});

describe('ingest of telemetry', () => {
  it('counts a stored reading once, a redelivery as a duplicate, and rejects when its batch fails', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const hooks = new TelemetryHooks();
    const log = { warn: () => undefined, error: () => undefined };
    const ingest = new FlowboxIngest(
      t.services.context,
      t.services.flowboxes,
      t.services.commands,
      log,
      180,
      new TelemetryWriter(t.services.context, hooks, log),
    );
    const topic = `flowbox/${device.serial}/telemetry`;
    const message = new TextEncoder().encode(encodePayload(reading(1, new Date())));
    await ingest.handle(topic, message);
    await ingest.handle(topic, message);
    expect(ingest.counters).toMatchObject({ received: 2, applied: 1, duplicates: 1 });
    hooks.register({ name: 'down', inTransaction: () => Promise.reject(new Error('database down')) });
    await expect(
      ingest.handle(topic, new TextEncoder().encode(encodePayload(reading(2, new Date())))),
    ).rejects.toThrow('database down');
    expect(ingest.counters.applied).toBe(1);
    expect(ingest.counters.dropped.failed).toBe(0);
  });
});
