import { and, count, eq, gt, inArray, lt, max, min, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginFailures } from '../db/schema.ts';

/** One key's failures within the window: how many, and the oldest and newest. */
export type KeyStats = { failures: number; oldest: Date; newest: Date };

/** Serialises the reservations that share a key, on every instance; taken in one order, so no deadlock. */
export async function lockKeys(tx: Db, keys: string[]): Promise<void> {
  for (const key of [...keys].sort())
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`login:${key}`}, 0))`);
}

/** The keys' failures after `since`, by key (keys without any are absent). */
export async function keyStats(db: Db, keys: string[], since: Date): Promise<Map<string, KeyStats>> {
  const rows = await db
    .select({
      key: loginFailures.key,
      failures: count(),
      oldest: min(loginFailures.at),
      newest: max(loginFailures.at),
    })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.at, since)))
    .groupBy(loginFailures.key);
  return new Map(
    rows.map((r) => [
      r.key,
      { failures: r.failures, oldest: new Date(r.oldest!), newest: new Date(r.newest!) },
    ]),
  );
}

/** Records one failure under each key; answers their ids. */
export async function insertFailures(db: Db, keys: string[], at: Date): Promise<number[]> {
  const rows = await db
    .insert(loginFailures)
    .values(keys.map((key) => ({ key, at })))
    .returning({ id: loginFailures.id });
  return rows.map((r) => r.id);
}

/** Forgets these failures, and every failure under `key`. */
export async function deleteFailures(db: Db, ids: number[], key: string): Promise<void> {
  await db.delete(loginFailures).where(or(inArray(loginFailures.id, ids), eq(loginFailures.key, key)));
}

/** Forgets every failure under `key` and under the keys that start with `prefix`. */
export async function deleteFailuresOf(db: Db, key: string, prefix: string): Promise<void> {
  await db
    .delete(loginFailures)
    .where(or(eq(loginFailures.key, key), sql`starts_with(${loginFailures.key}, ${prefix})`));
}

export async function deleteFailuresBefore(db: Db, before: Date): Promise<void> {
  await db.delete(loginFailures).where(lt(loginFailures.at, before));
}
