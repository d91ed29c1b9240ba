import { sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';

/** `last_seen_at` of a connected flowbox is rewritten only when older than this (as telemetry's). */
export const PRESENCE_RESOLUTION_S = 5;

export type PresenceTaken = {
  /** The serials seen: paired flowboxes, whatever their connection was. */
  serials: Set<string>;
  /** The ids of those that were disconnected and are connected now: their change is to be told. */
  connected: string[];
};

/**
 * "Online" presences (heartbeats and connections) in one statement (issue 32: presence at fleet
 * rate, a connection storm included): each paired flowbox of these serials is seen at its latest
 * time. A connected one has only its `last_seen_at` moved, and only when PRESENCE_RESOLUTION_S old
 * (no row version written otherwise); a disconnected one becomes connected since then. The rows are
 * locked in id order, as every batch of flowboxes is, so two instances' batches cannot deadlock.
 * Answers the serials it took; the others (unknown, not paired) are for the caller to drop.
 */
export async function seePresent(
  db: Db,
  seen: readonly { serial: string; at: Date }[],
): Promise<PresenceTaken> {
  if (seen.length === 0) return { serials: new Set(), connected: [] };
  const result = await db.execute(
    sql`WITH v AS (
        SELECT * FROM unnest(
          ${arrayLiteral(seen.map((s) => s.serial))}::text[],
          ${arrayLiteral(seen.map((s) => s.at.toISOString()))}::timestamptz[]
        ) AS v(serial, at)
      ),
      latest AS (SELECT serial, max(at) AS at FROM v GROUP BY serial),
      known AS (
        SELECT f.id, f.serial, f.connected, l.at FROM flowboxes f JOIN latest l ON l.serial = f.serial
        WHERE f.pairing_state = 'ready'
        ORDER BY f.id
        FOR UPDATE OF f
      ),
      moved AS (
        UPDATE flowboxes f SET
          connected = true,
          connection_changed_at = CASE WHEN k.connected THEN f.connection_changed_at ELSE k.at END,
          last_seen_at = GREATEST(f.last_seen_at, k.at),
          updated_at = k.at
        FROM known k
        WHERE f.id = k.id AND (NOT k.connected OR f.last_seen_at IS NULL
          OR f.last_seen_at <= k.at - make_interval(secs => ${PRESENCE_RESOLUTION_S}))
        RETURNING f.id, k.connected AS was_connected
      )
      SELECT k.serial, m.id AS connected_id
        FROM known k LEFT JOIN moved m ON m.id = k.id AND NOT m.was_connected`,
  );
  const rows = (result as unknown as { rows: { serial: string; connected_id: string | null }[] }).rows;
  return {
    serials: new Set(rows.map((r) => r.serial)),
    connected: rows.flatMap((r) => (r.connected_id ? [r.connected_id] : [])),
  };
}
