import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingsOfFlowbox } from '../db/readings.ts';
import { consumptionHourly } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { TelemetryHooks } from './hooks.ts';
import { keepReadingPartitions, partitionName, weekStart } from './reading-partitions.repo.ts';
import { createZones, pairDirectly, reading } from './testing.ts';
import { TelemetryWriter } from './writer.ts';

/*
 * Raw readings' life cycle (issue #32): weekly partitions made ahead, the default partition's rows
 * adopted a week a pass, weeks past the retention dropped whole, hourly figures kept. On PGlite, and
 * on PostgreSQL with FLOWBOX_TEST_PG.
 */

let t: TestApp;
const log = { warn: () => undefined, error: () => undefined };
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** Each stored reading of the flowbox: its seq and the partition that holds it. */
async function whereStored(flowboxId: string) {
  const result = await t.db.execute(
    sql`SELECT seq::int AS seq, tableoid::regclass::text AS part FROM telemetry_readings
        WHERE ${readingsOfFlowbox(flowboxId)} ORDER BY seq`,
  );
  return (result as unknown as { rows: { seq: number; part: string }[] }).rows;
}

async function weeklyPartitions(): Promise<string[]> {
  const result = await t.db.execute(sql`SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'telemetry_readings' AND c.relname LIKE 'telemetry_readings_w%' ORDER BY 1`);
  return (result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
}

describe('raw readings in weekly partitions (telemetry/reading-partitions.ts)', () => {
  it('makes the weeks ahead, adopts the default partition week by week, drops what the retention passed', async () => {
    const now = t.clock.now();
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const w = new TelemetryWriter(t.services.context, new TelemetryHooks(), log);
    // Stored before any partition: readings of 60 days ago, 20 days ago and now, in the default one.
    const at = (daysBack: number) => new Date(now.getTime() - daysBack * DAY);
    await w.submit(device.serial, reading(1, at(60), 1));
    await w.submit(device.serial, reading(2, at(20), 2));
    await w.submit(device.serial, reading(3, now, 3));
    expect((await whereStored(device.flowboxId)).map((r) => r.part)).toEqual([
      'telemetry_readings_default',
      'telemetry_readings_default',
      'telemetry_readings_default',
    ]);

    // A pass: every week from 35 days back to next week made; the default partition's rows of those
    // weeks moved in; the oldest week left in it (60 days back) adopted too.
    const first = await keepReadingPartitions(t.db, now, 90);
    const oldest = weekStart(at(35));
    const next = weekStart(new Date(now.getTime() + 7 * DAY));
    expect(first.made).toContain(partitionName(oldest));
    expect(first.made).toContain(partitionName(next));
    expect(first.adopted).toBe(1);
    expect(first.dropped).toEqual([]);
    expect(await whereStored(device.flowboxId)).toEqual([
      { seq: 1, part: partitionName(weekStart(at(60))) },
      { seq: 2, part: partitionName(weekStart(at(20))) },
      { seq: 3, part: partitionName(weekStart(now)) },
    ]);
    // Once made, a pass again makes nothing.
    expect(await keepReadingPartitions(t.db, now, 90)).toEqual({
      made: [],
      adopted: 0,
      dropped: [],
      purged: 0,
    });

    // A new reading goes to its week; a seq stored already is not stored again, even dated in
    // another week (the key holds the week: the seq is looked up in every partition).
    await w.submit(device.serial, reading(4, now, 4));
    const again = await w.submit(device.serial, reading(2, at(3), 9));
    expect(again).toBe('duplicate');
    expect((await whereStored(device.flowboxId)).map((r) => r.seq)).toEqual([1, 2, 3, 4]);

    // Forty days on, with a retention of 90 days: the week of 60 days back (now 100) is dropped
    // whole; the hourly figures of its reading stay.
    const later = new Date(now.getTime() + 40 * DAY);
    const pass = await keepReadingPartitions(t.db, later, 90);
    expect(pass.dropped).toContain(partitionName(weekStart(at(60))));
    expect((await whereStored(device.flowboxId)).map((r) => r.seq)).toEqual([2, 3, 4]);
    expect(await weeklyPartitions()).not.toContain(partitionName(weekStart(at(60))));
    const hours = await t.db
      .select()
      .from(consumptionHourly)
      .where(eq(consumptionHourly.flowboxId, device.flowboxId));
    expect(hours.reduce((sum, h) => sum + h.volumeMl, 0)).toBe(10_000);
  });

  it('purges rows of the default partition past the retention instead of adopting them', async () => {
    const now = t.clock.now();
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const w = new TelemetryWriter(t.services.context, new TelemetryHooks(), log);
    // A week no pass has made and the retention has passed (a row stored before partitions were).
    const old = new Date(now.getTime() - 400 * DAY);
    await w.submit(device.serial, reading(1, old, 1));
    expect((await whereStored(device.flowboxId))[0]!.part).toBe('telemetry_readings_default');
    const pass = await keepReadingPartitions(t.db, now, 90);
    expect(pass.purged).toBe(1);
    expect(await whereStored(device.flowboxId)).toEqual([]);
  });
});
