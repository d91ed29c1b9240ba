import { readingsOfFlowbox } from '../db/readings.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionDaily, consumptionHourly, flowboxes, telemetryReadings } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { TelemetryHooks, type StoredReading } from './hooks.ts';
import { LAST_SEEN_RESOLUTION_S } from './telemetry.repo.ts';
import { createZones, pairDirectly, reading } from './testing.ts';
import { DISK_FULL_RETRY_MS, DiskFullError, TelemetryWriter } from './writer.ts';

let t: TestApp;
const log = { warn: () => undefined, error: () => undefined };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const writer = (hooks = new TelemetryHooks()) => new TelemetryWriter(t.services.context, hooks, log);

async function hourly(flowboxId: string) {
  return t.db
    .select()
    .from(consumptionHourly)
    .where(eq(consumptionHourly.flowboxId, flowboxId))
    .orderBy(consumptionHourly.hour);
}
async function daily(flowboxId: string) {
  return t.db
    .select({
      day: consumptionDaily.day,
      volumeMl: consumptionDaily.volumeMl,
      readings: consumptionDaily.readings,
    })
    .from(consumptionDaily)
    .where(eq(consumptionDaily.flowboxId, flowboxId))
    .orderBy(consumptionDaily.day);
}

describe('the telemetry batch writer', () => {
  it('stores a reading once per (flowbox, seq): a redelivery, in the same batch or later, doubles nothing', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const w = writer();
    const first = reading(1, '2026-01-05T10:01:00.000Z', 6.512);
    const outcomes = await Promise.all([
      w.submit(device.serial, first),
      w.submit(device.serial, first),
      w.submit(device.serial, reading(2, '2026-01-05T10:02:00.000Z', 1.5)),
    ]);
    expect(outcomes).toEqual(['stored', 'duplicate', 'stored']);
    expect(await w.submit(device.serial, first)).toBe('duplicate');
    const rows = await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(device.flowboxId));
    expect(rows.map((r) => [r.seq, r.volumeMl])).toEqual([
      [1, 6512],
      [2, 1500],
    ]);
    const [hour] = await hourly(device.flowboxId);
    expect(hour).toMatchObject({ volumeMl: 8012, readings: 2, temperatureMin: 19.5, temperatureCount: 2 });
    expect(await daily(device.flowboxId)).toEqual([{ day: '2026-01-05', volumeMl: 8012, readings: 2 }]);
    const [box] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, device.flowboxId));
    expect(box).toMatchObject({ lastSequence: 2, flowLpm: '1.5000', connected: true });
  });

  it('answers unknown_device for a serial that is not paired, and writes nothing for it', async () => {
    expect(await writer().submit('NOBODY-1', reading(1, new Date()))).toBe('unknown_device');
  });

  it('places late and out-of-order readings in their own hour and local day, and keeps the newest figures', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const w = writer();
    await w.submit(device.serial, reading(10, '2026-01-05T23:30:00.000Z', 3));
    // A replay of an offline buffer: older seqs, earlier hours, one ending exactly on the hour.
    await Promise.all([
      w.submit(device.serial, reading(3, '2026-01-05T22:59:00.000Z', 2)),
      w.submit(device.serial, reading(2, '2026-01-05T22:00:00.000Z', 1)),
      w.submit(device.serial, reading(4, '2026-01-05T23:00:00.000Z', 4)),
    ]);
    expect((await hourly(device.flowboxId)).map((h) => [h.hour.toISOString(), h.volumeMl])).toEqual([
      ['2026-01-05T21:00:00.000Z', 1000],
      ['2026-01-05T22:00:00.000Z', 6000],
      ['2026-01-05T23:00:00.000Z', 3000],
    ]);
    // Paris is UTC+1 in January: 23:30Z is already the 6th; 23:00Z ends the 5th.
    expect(await daily(device.flowboxId)).toEqual([
      { day: '2026-01-05', volumeMl: 7000, readings: 3 },
      { day: '2026-01-06', volumeMl: 3000, readings: 1 },
    ]);
    const [box] = await t.db.select().from(flowboxes).where(eq(flowboxes.id, device.flowboxId));
    expect(box).toMatchObject({ lastSequence: 10, flowLpm: '3.0000' });
  });

  it('moves last_seen_at at most every 5 s while connected (so the row updates in place), at once on reconnection', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const w = writer();
    const box = async () =>
      (await t.db.select().from(flowboxes).where(eq(flowboxes.id, device.flowboxId)))[0]!;
    await w.submit(device.serial, reading(1, t.clock.now()));
    const first = (await box()).lastSeenAt!;
    t.clock.advance(2_000);
    await w.submit(device.serial, reading(2, t.clock.now(), 2));
    // Within the resolution: the newest figures move, last_seen_at does not.
    expect(await box()).toMatchObject({ lastSeenAt: first, lastSequence: 2, flowLpm: '2.0000' });
    t.clock.advance(4_000);
    const later = t.clock.now();
    await w.submit(device.serial, reading(3, later));
    const moved = (await box()).lastSeenAt!;
    expect(moved.getTime()).toBeGreaterThanOrEqual(later.getTime());
    expect(moved.getTime() - first.getTime()).toBeGreaterThanOrEqual(LAST_SEEN_RESOLUTION_S * 1000);
    // Marked disconnected (missed heartbeats): the next reading is a reconnection, stamped at once.
    await t.db.update(flowboxes).set({ connected: false }).where(eq(flowboxes.id, device.flowboxId));
    t.clock.advance(1_000);
    const back = t.clock.now();
    await w.submit(device.serial, reading(4, back));
    const again = await box();
    expect(again.connected).toBe(true);
    expect(again.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(back.getTime());
    expect(again.connectionChangedAt!.getTime()).toBeGreaterThanOrEqual(back.getTime());
  });

  it('gives listeners the new readings only, inside the transaction and after commit', async () => {
    const [zone] = await createZones(t.db, 'America/New_York');
    const device = await pairDirectly(t.db, zone!);
    const hooks = new TelemetryHooks();
    const inside: { seqs: number[]; visible: number }[] = [];
    const after: StoredReading[][] = [];
    hooks.register({
      name: 'test',
      inTransaction: async (tx: Db, readings) => {
        // The listener sees the batch's own rows, in its transaction.
        const [row] = await tx
          .execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM telemetry_readings WHERE ${readingsOfFlowbox(device.flowboxId)}`,
          )
          .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
        inside.push({ seqs: readings.map((r) => r.seq), visible: row!.n });
      },
      afterCommit: (readings) => void after.push([...readings]),
    });
    const w = writer(hooks);
    await Promise.all([1, 2, 2].map((seq) => w.submit(device.serial, reading(seq, new Date(), 0.5))));
    await w.submit(device.serial, reading(1, new Date()));
    expect(inside).toEqual([{ seqs: [1, 2], visible: 2 }]);
    expect(after).toHaveLength(1);
    expect(after[0]![0]).toMatchObject({
      flowboxId: device.flowboxId,
      zoneId: zone!.zoneId,
      serial: device.serial,
      scope: zone,
      seq: 1,
      volumeMl: 500,
      intervalS: 60,
      temperatureC: 19.5,
      humidityPct: 48,
    });
  });

  it('rolls the whole batch back when a listener fails in the transaction, and rejects every reading of it', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const hooks = new TelemetryHooks();
    const remove = hooks.register({
      name: 'broken',
      inTransaction: () => Promise.reject(new Error('rule failed')),
    });
    const w = writer(hooks);
    await expect(w.submit(device.serial, reading(1, new Date()))).rejects.toThrow('rule failed');
    expect(w.counters.failed_batches).toBe(1);
    expect(await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(device.flowboxId))).toEqual(
      [],
    );
    expect(await hourly(device.flowboxId)).toEqual([]);
    remove();
    expect(await w.submit(device.serial, reading(1, new Date()))).toBe('stored');
  });

  it('counts the backlog: readings waiting for a batch and readings being written, back to 0 once stored', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const hooks = new TelemetryHooks();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    hooks.register({
      name: 'slow database',
      inTransaction: async () => {
        entered();
        await held;
      },
    });
    const w = writer(hooks);
    const first = w.submit(device.serial, reading(1, new Date()));
    await inside;
    // One batch at a time: while it is written, the next readings wait.
    const next = [2, 3, 4].map((seq) => w.submit(device.serial, reading(seq, new Date())));
    expect(w.counters).toMatchObject({ writing: 1, queued: 3 });
    release();
    expect(await first).toBe('stored');
    expect(await Promise.all(next)).toEqual(['stored', 'stored', 'stored']);
    expect(w.counters).toMatchObject({ writing: 0, queued: 0, stored: 4 });
  });
});

describe('a database whose disk is full (docs/operations.md "When the disk fills")', () => {
  it('refuses readings without storing or splitting anything, says so, and takes them again once it has room', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const hooks = new TelemetryHooks();
    let full = true;
    hooks.register({
      name: 'disk',
      inTransaction: () =>
        full
          ? Promise.reject(
              Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }),
            )
          : Promise.resolve(),
    });
    const told: (string | undefined)[] = [];
    const w = new TelemetryWriter(t.services.context, hooks, log, {
      onStorage: (problem) => told.push(problem),
    });
    const at = (i: number) => new Date(t.clock.now().getTime() - (10 - i) * 60_000);
    const first = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => w.submit(device.serial, reading(i + 1, at(i)))),
    );
    expect(first.every((r) => r.status === 'rejected')).toBe(true);
    expect(w.counters.splits).toBe(0);
    expect(told).toEqual(['database disk full: readings are refused, devices keep them']);
    // While full, refused at once: nothing queued, nothing written.
    await expect(w.submit(device.serial, reading(7, at(7)))).rejects.toThrow(DiskFullError);
    expect(w.counters.queued).toBe(0);
    const stored = () => t.db.select().from(telemetryReadings).where(readingsOfFlowbox(device.flowboxId));
    expect(await stored()).toEqual([]);
    // Room again: the devices' next tries are stored, once each.
    full = false;
    t.clock.advance(DISK_FULL_RETRY_MS);
    const again = await Promise.all(
      Array.from({ length: 7 }, (_, i) => w.submit(device.serial, reading(i + 1, at(i)))),
    );
    expect(again).toEqual(Array(7).fill('stored'));
    expect((await stored()).map((r) => r.seq).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(told).toEqual(['database disk full: readings are refused, devices keep them', undefined]);
  });
});
