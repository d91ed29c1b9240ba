import { readingsOfFlowbox } from '../db/readings.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import {
  encodePayload,
  MAX_DEVICE_TIMESTAMP_AGE_S,
  MAX_DEVICE_TIMESTAMP_AHEAD_S,
  PROTOCOL_VERSION,
} from '@flowbox/shared';
import { deviceCommands, events, flowboxes, telemetryReadings } from '../db/schema.ts';
import { TelemetryHooks } from '../telemetry/hooks.ts';
import { createZones, pairDirectly, reading } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';
import { liveMessagesIn, statementsDuring } from '../firmware/testing.ts';
import { FlowboxIngest } from './ingest.service.ts';

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
    expect(ingest.counters.not_stored).toBe(1);
  });
});

const encode = (message: object) => new TextEncoder().encode(encodePayload(message));
const quietIngest = () =>
  new FlowboxIngest(
    t.services.context,
    t.services.flowboxes,
    t.services.commands,
    { warn: () => undefined },
    180,
  );

const state = (at: string) => ({
  v: PROTOCOL_VERSION,
  at,
  valve: 'closed',
  maintenance_mode: false,
  leak_detection_mode: false,
  leak_detection_until: null,
  model: 'one_inch_v1',
  water_temperature: 'cold',
  versions: { esp: '1', board: '1', firmware: '1' },
  network: { interface: 'wifi', address: '10.0.0.2', gateway: '10.0.0.1', wifi_ssid: 'x' },
  temperature_c: null,
  humidity_pct: null,
});
const reboot = (seq: number, at: string) => ({
  v: PROTOCOL_VERSION,
  seq,
  at,
  type: 'reboot',
  reason: 'button',
});

/** A safety close sent to the flowbox, waiting for its ack. */
async function closeSent(flowboxId: string) {
  const [command] = await t.db
    .insert(deviceCommands)
    .values({
      flowboxId,
      name: 'valve_close',
      params: {},
      issuedBy: null,
      issuedByName: null,
      origin: 'system',
      issuedAt: t.clock.now(),
      expiresAt: new Date(t.clock.now().getTime() + 60_000),
      nextAttemptAt: t.clock.now(),
      status: 'sent',
    })
    .returning();
  return command!;
}

describe('device messages acknowledged only once stored (issue #20 item 3)', () => {
  it('rejects an event, a state and an ack the database failed to store, and applies them when sent again', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const ingest = quietIngest();
    const command = await closeSent(device.flowboxId);
    const now = t.clock.now().toISOString();
    const messages: [string, Uint8Array][] = [
      [`flowbox/${device.serial}/events`, encode(reboot(1, now))],
      [`flowbox/${device.serial}/state`, encode(state(now))],
      [
        `flowbox/${device.serial}/acks`,
        encode({ v: PROTOCOL_VERSION, command_id: command.id, at: now, result: 'done', reason: null }),
      ],
    ];
    // The database refuses every write of this flowbox's row, as a database going away would.
    await t.db.execute(
      sql.raw(`CREATE FUNCTION refuse_flowbox() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'database unavailable'; END $$ LANGUAGE plpgsql`),
    );
    await t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_flowbox BEFORE UPDATE ON flowboxes
      FOR EACH ROW WHEN (OLD.serial = '${device.serial}') EXECUTE FUNCTION refuse_flowbox()`),
    );
    try {
      for (const [topic, payload] of messages) await expect(ingest.handle(topic, payload)).rejects.toThrow();
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_flowbox ON flowboxes'));
      await t.db.execute(sql.raw('DROP FUNCTION refuse_flowbox'));
    }
    expect(ingest.counters).toMatchObject({ applied: 0, not_stored: 3 });
    expect(Object.values(ingest.counters.dropped).reduce((a, b) => a + b, 0)).toBe(0);
    // Sent again (the broker's redelivery, the device's resend): stored.
    for (const [topic, payload] of messages) await ingest.handle(topic, payload);
    expect(ingest.counters.applied).toBe(3);
    const logged = await t.db.select().from(events).where(eq(events.objectId, device.flowboxId));
    // Each once: the reboot event, and the closing its ack confirmed.
    expect(logged.map((e) => e.actionName).sort()).toEqual(['rebooted', 'valve_closed']);
    const [done] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, command.id));
    expect(done!.status).toBe('done');
    const [box] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, device.flowboxId));
    expect(box!.valve).toBe('closed');
  });
});

describe('device timestamps bounded against the server clock (issue #13 item 4)', () => {
  const ageMs = MAX_DEVICE_TIMESTAMP_AGE_S * 1000;
  const aheadMs = MAX_DEVICE_TIMESTAMP_AHEAD_S * 1000;

  it('drops and counts readings dated too long ago or ahead, acknowledged; the edges of the window are kept', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const ingest = quietIngest();
    const now = t.clock.now().getTime();
    const topic = `flowbox/${device.serial}/telemetry`;
    const send = (seq: number, at: string) => ingest.handle(topic, encode(reading(seq, at)));
    await send(1, '0000-01-01T00:00:00Z');
    await send(2, '0001-01-01T00:00:00Z');
    await send(3, '1970-01-01T00:00:00Z');
    await send(4, new Date(now - ageMs - 60_000).toISOString());
    await send(5, '9999-12-31T23:59:59Z');
    await send(6, new Date(now + aheadMs + 60_000).toISOString());
    expect(ingest.counters.dropped).toMatchObject({ stale: 4, future: 2 });
    await send(7, new Date(now - ageMs + 60_000).toISOString());
    await send(8, new Date(now + aheadMs - 60_000).toISOString());
    const rows = await t.db
      .select({ seq: telemetryReadings.seq })
      .from(telemetryReadings)
      .where(readingsOfFlowbox(device.flowboxId));
    expect(rows.map((r) => r.seq).sort()).toEqual([7, 8]);
  });

  it('applies states, events and acks dated by a wrong clock (the server dates them), and counts them', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const ingest = quietIngest();
    const command = await closeSent(device.flowboxId);
    const future = '9999-12-31T23:59:59Z';
    await ingest.handle(`flowbox/${device.serial}/state`, encode(state(future)));
    await ingest.handle(`flowbox/${device.serial}/events`, encode(reboot(1, '0001-01-01T00:00:00Z')));
    // A safety close confirmed by a device whose clock is a year behind is still confirmed.
    const yearAgo = new Date(t.clock.now().getTime() - 365 * 86_400_000).toISOString();
    await ingest.handle(
      `flowbox/${device.serial}/acks`,
      encode({ v: PROTOCOL_VERSION, command_id: command.id, at: yearAgo, result: 'done', reason: null }),
    );
    expect(ingest.counters).toMatchObject({ applied: 3, misdated: 3 });
    expect(Object.values(ingest.counters.dropped).reduce((a, b) => a + b, 0)).toBe(0);
    const [done] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, command.id));
    expect(done!.status).toBe('done');
    const logged = await t.db.select().from(events).where(eq(events.objectId, device.flowboxId));
    for (const line of logged)
      expect(Math.abs(line.createdAt.getTime() - t.clock.now().getTime())).toBeLessThan(60_000);
  });
});

describe('presence at fleet rate (issue 32)', () => {
  const presence = (status: 'online' | 'offline') =>
    encode({
      v: PROTOCOL_VERSION,
      at: t.clock.now().toISOString(),
      status,
      ...(status === 'offline' ? { reason: 'shutdown' } : {}),
    });
  const rowOf = async (serial: string) =>
    (await t.db.select().from(flowboxes).where(eq(flowboxes.serial, serial)))[0]!;

  it('writes connections and heartbeats in batches, tells the browsers of each connection, and keeps a device in order', async () => {
    const zones = await createZones(t.db, 'Europe/Paris', 2);
    const devices = await Promise.all(
      Array.from({ length: 40 }, (_, i) => pairDirectly(t.db, zones[i % 2]!)),
    );
    const ingest = quietIngest();
    // First contact, all at once (a broker restart): each comes online, a change of connection,
    // in one batch, and the browsers are told of each flowbox connected.
    const before = { ...ingest.presence.counters };
    const connectedAt = t.clock.now().getTime();
    const sent = await statementsDuring(t.db, () =>
      Promise.all(devices.map((d) => ingest.handle(`flowbox/${d.serial}/presence`, presence('online')))),
    );
    expect(ingest.presence.counters.batches - before.batches).toBe(1);
    expect(ingest.presence.counters.connected - before.connected).toBe(40);
    // Only the flowboxes' messages: a job of the app may notify something else meanwhile.
    const told = (
      liveMessagesIn(sent) as unknown as { type: string; flowbox: { serial: string; connection: string } }[]
    ).filter((m) => m.type === 'flowbox');
    expect(told.map((m) => m.flowbox.serial).sort()).toEqual(devices.map((d) => d.serial).sort());
    expect(told.every((m) => m.type === 'flowbox' && m.flowbox.connection === 'connected')).toBe(true);
    const connectedSince = new Map<string, number>();
    for (const d of devices) {
      const row = await rowOf(d.serial);
      expect(row).toMatchObject({ connected: true });
      expect(row.connectionChangedAt!.getTime()).toBeGreaterThanOrEqual(connectedAt);
      connectedSince.set(d.serial, row.connectionChangedAt!.getTime());
    }

    // A minute later, forty heartbeats: taken in one batch (one statement), every one seen,
    // nothing else moved.
    t.clock.advance(60_000);
    const { batches, taken, connected } = ingest.presence.counters;
    const from = t.clock.now().getTime();
    const heartbeats = await statementsDuring(t.db, () =>
      Promise.all(devices.map((d) => ingest.handle(`flowbox/${d.serial}/presence`, presence('online')))),
    );
    const to = t.clock.now().getTime();
    expect(ingest.presence.counters.taken - taken).toBe(40);
    expect(ingest.presence.counters.batches - batches).toBe(1);
    expect(ingest.presence.counters.connected - connected).toBe(0);
    expect(liveMessagesIn(heartbeats).filter((m) => m.type === 'flowbox')).toEqual([]);
    for (const d of devices) {
      const row = await rowOf(d.serial);
      expect(row.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(from);
      expect(row.lastSeenAt!.getTime()).toBeLessThanOrEqual(to);
      expect(row.connectionChangedAt!.getTime()).toBe(connectedSince.get(d.serial));
    }
    expect(ingest.counters.applied).toBe(80);

    // A heartbeat within the resolution writes nothing, but is taken (and acknowledged).
    const seenAt = (await rowOf(devices[1]!.serial)).lastSeenAt!.getTime();
    t.clock.advance(2_000);
    await ingest.handle(`flowbox/${devices[1]!.serial}/presence`, presence('online'));
    expect((await rowOf(devices[1]!.serial)).lastSeenAt!.getTime()).toBe(seenAt);

    // One device's heartbeat, going offline, and back, sent at once: applied in that order.
    const d = devices[2]!.serial;
    t.clock.advance(10_000);
    await Promise.all([
      ingest.handle(`flowbox/${d}/presence`, presence('online')),
      ingest.handle(`flowbox/${d}/presence`, presence('offline')),
    ]);
    expect(await rowOf(d)).toMatchObject({ connected: false });
    t.clock.advance(1_000);
    const offlineUntil = t.clock.now().getTime();
    await Promise.all([
      ingest.handle(`flowbox/${d}/presence`, presence('online')),
      ingest.handle(`flowbox/${d}/presence`, presence('offline')),
      ingest.handle(`flowbox/${d}/presence`, presence('online')),
    ]);
    const back = await rowOf(d);
    expect(back).toMatchObject({ connected: true });
    expect(back.connectionChangedAt!.getTime()).toBeGreaterThanOrEqual(offlineUntil);
    expect(ingest.counters.dropped.invalid_schema).toBe(0);
  });

  it('rejects heartbeats whose batch failed, so that they are not acknowledged', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const ingest = quietIngest();
    await ingest.handle(`flowbox/${device.serial}/presence`, presence('online'));
    await t.db.execute(sql`ALTER TABLE flowboxes RENAME COLUMN last_seen_at TO last_seen_at_away`);
    try {
      t.clock.advance(60_000);
      await expect(ingest.handle(`flowbox/${device.serial}/presence`, presence('online'))).rejects.toThrow();
      expect(ingest.counters.not_stored).toBe(1);
    } finally {
      await t.db.execute(sql`ALTER TABLE flowboxes RENAME COLUMN last_seen_at_away TO last_seen_at`);
    }
  });
});
