import { MAX_DEVICE_TIMESTAMP_AGE_S } from '@flowbox/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/*
 * Raw readings' life cycle (issue #32, docs/decisions.md "Raw readings: weekly partitions, kept 90
 * days", docs/operations.md "Storage"): telemetry_readings is partitioned by week of measured_at
 * (migration 0027). Each pass of the `reading_partitions` job makes the weeks a reading may be
 * measured in (from the oldest the protocol accepts to the next week) before readings need them,
 * moves rows the default partition took into weeks of their own (the readings stored before 0027, a
 * week a pass), and drops the weeks wholly older than the retention: a partition dropped, never rows
 * deleted one by one. Hourly and daily figures are other tables and stay.
 */

const WEEK_MS = 7 * 86_400_000;
const PARENT = 'telemetry_readings';
const DEFAULT_PARTITION = 'telemetry_readings_default';
/** One lock for the partitions' upkeep across instances (pg_advisory_xact_lock). */
const UPKEEP_LOCK = 32_032_027;

/** Monday 00:00 UTC of the week holding `at`. */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 86_400_000);
}

/** The partition of the week starting at `start`: telemetry_readings_w20261207. */
export const partitionName = (start: Date) =>
  `${PARENT}_w${start.toISOString().slice(0, 10).replaceAll('-', '')}`;

/** The week a partition name covers (null: not a weekly partition). */
export function weekOf(name: string): Date | null {
  const match = /^telemetry_readings_w(\d{4})(\d{2})(\d{2})$/.exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`) : null;
}

/** What one pass of the upkeep did. */
export type PartitionPass = { made: string[]; adopted: number; dropped: string[]; purged: number };

/**
 * One pass of the upkeep at `now`: the weeks a reading may be measured in made (rows of theirs in
 * the default partition moved in), one older week of the default partition adopted, and the weeks
 * past the retention dropped (with the default partition's rows as old).
 */
export async function keepReadingPartitions(
  db: Db,
  now: Date,
  retentionDays: number,
): Promise<PartitionPass> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const oldestAccepted = new Date(now.getTime() - MAX_DEVICE_TIMESTAMP_AGE_S * 1000);
  const from = weekStart(oldestAccepted > cutoff ? oldestAccepted : cutoff);
  const to = weekStart(new Date(now.getTime() + WEEK_MS));
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${UPKEEP_LOCK})`);
    const existing = new Set(await partitions(tx));
    const made: string[] = [];
    for (let week = from; week <= to; week = new Date(week.getTime() + WEEK_MS)) {
      if (existing.has(partitionName(week))) continue;
      await makeWeek(tx, week);
      made.push(partitionName(week));
    }
    // The default partition's rows: the oldest week of them adopted (or purged if past the retention).
    let adopted = 0;
    let purged = 0;
    const oldest = await oldestInDefault(tx);
    if (oldest) {
      const week = weekStart(oldest);
      if (week.getTime() + WEEK_MS <= cutoff.getTime()) purged = await purgeDefaultBefore(tx, cutoff);
      else if (!existing.has(partitionName(week)) && !made.includes(partitionName(week))) {
        adopted = await makeWeek(tx, week);
        made.push(partitionName(week));
      }
    }
    const dropped: string[] = [];
    for (const name of await partitions(tx)) {
      const week = weekOf(name);
      if (!week || week.getTime() + WEEK_MS > cutoff.getTime()) continue;
      await tx.execute(sql.raw(`DROP TABLE "${name}"`));
      dropped.push(name);
    }
    return { made, adopted, dropped, purged };
  });
}

/** The weekly partitions of telemetry_readings, by name. */
async function partitions(db: Db): Promise<string[]> {
  const result = await db.execute(sql`SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = ${PARENT} ORDER BY c.relname`);
  return (result as unknown as { rows: { name: string }[] }).rows
    .map((r) => r.name)
    .filter((name) => weekOf(name) !== null);
}

/**
 * Makes the week's partition; rows of that week in the default partition are moved into it first
 * (PostgreSQL refuses a partition whose rows the default partition holds). Answers how many moved.
 */
async function makeWeek(db: Db, start: Date): Promise<number> {
  const name = partitionName(start);
  const end = new Date(start.getTime() + WEEK_MS);
  const range = `FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`;
  const inRange = sql`measured_at >= ${start.toISOString()}::timestamptz AND measured_at < ${end.toISOString()}::timestamptz`;
  const held = await db.execute(sql`SELECT 1 FROM ${sql.raw(DEFAULT_PARTITION)} WHERE ${inRange} LIMIT 1`);
  if ((held as unknown as { rows: unknown[] }).rows.length === 0) {
    await db.execute(sql.raw(`CREATE TABLE "${name}" PARTITION OF ${PARENT} FOR VALUES ${range}`));
    return 0;
  }
  await db.execute(
    sql.raw(`CREATE TABLE "${name}" (LIKE ${PARENT} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`),
  );
  const moved = await count(
    db,
    sql`WITH moved AS (DELETE FROM ${sql.raw(DEFAULT_PARTITION)} WHERE ${inRange} RETURNING *),
      put AS (INSERT INTO ${sql.raw(`"${name}"`)} SELECT * FROM moved RETURNING 1)
      SELECT count(*)::int AS n FROM put`,
  );
  await db.execute(sql.raw(`ALTER TABLE ${PARENT} ATTACH PARTITION "${name}" FOR VALUES ${range}`));
  return moved;
}

/** The `n` a counting statement answers. */
async function count(db: Db, statement: ReturnType<typeof sql>): Promise<number> {
  const result = await db.execute(statement);
  return Number((result as unknown as { rows: { n: number | string }[] }).rows[0]?.n ?? 0);
}

async function oldestInDefault(db: Db): Promise<Date | null> {
  const result = await db.execute(sql`SELECT min(measured_at) AS oldest FROM ${sql.raw(DEFAULT_PARTITION)}`);
  const oldest = (result as unknown as { rows: { oldest: string | Date | null }[] }).rows[0]?.oldest;
  return oldest ? new Date(oldest) : null;
}

function purgeDefaultBefore(db: Db, cutoff: Date): Promise<number> {
  return count(
    db,
    sql`WITH gone AS (DELETE FROM ${sql.raw(DEFAULT_PARTITION)}
        WHERE measured_at < ${cutoff.toISOString()}::timestamptz RETURNING 1)
      SELECT count(*)::int AS n FROM gone`,
  );
}
