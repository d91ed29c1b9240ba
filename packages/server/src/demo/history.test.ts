import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { DEMO_FLEET_ZONES, seedDemo } from '../seed/index.ts';
import { openTestDatabase } from '../test/harness.ts';
import { zonesOfCustomer, type FleetZone } from './fleet.repo.ts';
import { demoPast, seedDemoHistory } from './history.ts';

/*
 * Issue #15: the demo zones hold a past (two years and more) from the simulator's model, written
 * to the rollups the live ingest writes, once.
 */

const silent = { info: () => undefined, warn: () => undefined };
// Late November 2026: the history starts on 1 November 2024 (24 whole months back).
const NOW = new Date('2026-11-26T03:17:42Z');

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
let zone: FleetZone;
const flowboxId = randomUUID();

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows[0]!;
}

const totals = (zoneId: string) =>
  one<{ hourly: string; daily: string; hours: string; days: string; first: string; last: string }>(sql`
    SELECT (SELECT coalesce(sum(volume_ml), 0)::text FROM consumption_hourly WHERE zone_id = ${zoneId}) AS hourly,
      (SELECT coalesce(sum(volume_ml), 0)::text FROM consumption_daily WHERE zone_id = ${zoneId}) AS daily,
      (SELECT count(*)::text FROM consumption_hourly WHERE zone_id = ${zoneId}) AS hours,
      (SELECT count(*)::text FROM consumption_daily WHERE zone_id = ${zoneId}) AS days,
      (SELECT min(day)::text FROM consumption_daily WHERE zone_id = ${zoneId}) AS first,
      (SELECT max(day)::text FROM consumption_daily WHERE zone_id = ${zoneId}) AS last`);

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seedDemo(db, silent);
  const [customer] = (
    (await db.execute(sql`SELECT id FROM customers WHERE name = 'Acme Water Services'`)) as unknown as {
      rows: { id: string }[];
    }
  ).rows;
  const fleet = (await zonesOfCustomer(db, customer!.id)).filter((z) =>
    DEMO_FLEET_ZONES.some((f) => f.building === z.buildingName && f.zone === z.name),
  );
  zone = fleet.find((z) => z.name === 'Flat 101')!;
});

afterAll(async () => {
  await database.close();
});

describe('the demo history (issue #15)', () => {
  it('is the same past for the same zone: drawn from the zone, not from chance', () => {
    const sum = (readings: Iterable<{ volumeL: number }>) => {
      let total = 0;
      for (const r of readings) total += r.volumeL;
      return total;
    };
    const a = demoPast(zone, NOW);
    expect(a.from.toISOString()).toBe('2024-10-31T23:00:00.000Z'); // 1 November 2024, Paris midnight
    expect(sum(a.readings)).toBe(sum(demoPast(zone, NOW).readings));
  });

  it('writes two years and more of the zone to the rollups, their totals the sum of the readings, once', async () => {
    expect(await seedDemoHistory(db, [{ zone, flowboxId }], NOW)).toBe(1);
    let readingsMl = 0;
    let count = 0;
    for (const r of demoPast(zone, NOW).readings) {
      readingsMl += Math.round(r.volumeL * 1000);
      count += 1;
    }
    const written = await totals(zone.path.zoneId);
    expect(written.first).toBe('2024-11-01');
    expect(written.last).toBe('2026-11-26');
    expect(Number(written.days)).toBe(756); // 1 Nov 2024 – 26 Nov 2026
    expect(Number(written.hourly)).toBe(readingsMl);
    expect(Number(written.daily)).toBe(readingsMl);
    // A household of a shower, a toilet and a washing machine: a few hundred litres a day.
    expect(readingsMl / 1000 / 756).toBeGreaterThan(150);
    expect(readingsMl / 1000 / 756).toBeLessThan(600);
    const readings = await one<{ n: string }>(
      sql`SELECT sum(readings)::text AS n FROM consumption_hourly WHERE zone_id = ${zone.path.zoneId}`,
    );
    expect(Number(readings.n)).toBe(count);

    // A second start (or the zone's flowbox paired again) adds nothing.
    expect(await seedDemoHistory(db, [{ zone, flowboxId: randomUUID() }], NOW)).toBe(0);
    expect(await totals(zone.path.zoneId)).toEqual(written);
  }, 60_000);
});
