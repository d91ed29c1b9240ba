import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';

/** `last_seen_at` of a connected flowbox is rewritten only when older than this (as telemetry's). */
export const PRESENCE_RESOLUTION_S = 5;

/**
 * Heartbeats of flowboxes already connected, in one statement (issue 32: presence at fleet rate):
 * each paired, connected flowbox of these serials is seen at its time, its `last_seen_at` moved
 * only when PRESENCE_RESOLUTION_S old (no row version written otherwise), nothing else changed, so
 * nobody is told anything. Answers the serials it took; the others (unknown, not paired,
 * disconnected: their connection changes) are for the caller to apply one by one.
 */
export async function seeConnected(
  db: Db,
  seen: readonly { serial: string; at: Date }[],
): Promise<Set<string>> {
  if (seen.length === 0) return new Set();
  const result = await db.execute(
    sql`WITH v AS (
        SELECT * FROM unnest(
          ${arrayLiteral(seen.map((s) => s.serial))}::text[],
          ${arrayLiteral(seen.map((s) => s.at.toISOString()))}::timestamptz[]
        ) AS v(serial, at)
      ),
      latest AS (SELECT serial, max(at) AS at FROM v GROUP BY serial),
      known AS (
        SELECT f.id, f.serial, l.at FROM flowboxes f JOIN latest l ON l.serial = f.serial
        WHERE f.pairing_state = 'ready' AND f.connected
        ORDER BY f.id
        FOR UPDATE OF f
      ),
      moved AS (
        UPDATE flowboxes f SET last_seen_at = k.at, updated_at = k.at
        FROM known k
        WHERE f.id = k.id AND f.connected
          AND (f.last_seen_at IS NULL OR f.last_seen_at <= k.at - make_interval(secs => ${PRESENCE_RESOLUTION_S}))
        RETURNING f.id
      )
      SELECT serial FROM known`,
  );
  return new Set((result as unknown as { rows: { serial: string }[] }).rows.map((r) => r.serial));
}
