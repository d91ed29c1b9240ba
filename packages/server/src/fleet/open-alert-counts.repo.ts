import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/*
 * The upkeep of each flowbox's count of open alerts (migration 0020, docs/fleet.md "Speed"), which
 * the fleet list reads when it sorts the whole fleet by open alerts: triggers append each change
 * (+1, -1) to `fleet_open_alert_changes`, and these add the changes to the counts and set right a
 * count that drifted. The fleet_open_alert_counts job calls them; the list folds the changes first.
 */

/** Changes one fold adds to the flowboxes' open-alert counts at most: a bounded statement. */
const FOLD_BATCH = 10_000;
/** Flowboxes one check recounts. */
const CHECK_BATCH = 500;

/**
 * Adds the open-alert changes the triggers appended to the flowboxes' counts (migration 0020), a
 * batch at most; nothing when another call is doing it. Answers how many it added.
 */
export async function foldOpenAlertCounts(db: Db): Promise<number> {
  return countOf(db, sql`SELECT fleet_open_alerts_fold(${FOLD_BATCH}) AS n`);
}

/** Recounts a slice of flowboxes from their alerts and sets right any count that drifted. */
export async function checkOpenAlertCounts(db: Db): Promise<number> {
  return countOf(db, sql`SELECT fleet_open_alerts_check(${CHECK_BATCH}) AS n`);
}

/** The count (`n`) the one row of a maintenance function's answer holds, never below 0. */
async function countOf(db: Db, query: SQL): Promise<number> {
  const { rows } = (await db.execute(query)) as unknown as { rows: { n: number | string | null }[] };
  return Math.max(0, Number(rows[0]?.n ?? 0));
}
