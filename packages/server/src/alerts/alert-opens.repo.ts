import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { alertOpens, alerts } from '../db/schema.ts';

/**
 * The user opened these alerts (docs/alerts.md "Escalation"): the first time counts, a later one
 * changes nothing.
 */
export async function recordAlertOpens(
  db: Db,
  userId: string,
  alertIds: readonly string[],
  at: Date,
): Promise<void> {
  if (alertIds.length === 0) return;
  await db
    .insert(alertOpens)
    .values(alertIds.map((alertId) => ({ alertId, userId, openedAt: at })))
    .onConflictDoNothing();
}

/** Who opened the alert. */
export async function openersOf(db: Db, alertId: string): Promise<Set<string>> {
  const rows = await db
    .select({ userId: alertOpens.userId })
    .from(alertOpens)
    .where(eq(alertOpens.alertId, alertId));
  return new Set(rows.map((r) => r.userId));
}

/** The alerts of these ids that exist, with where they are (for the caller's scope check). */
export function alertsToOpen(db: Db, alertIds: readonly string[]) {
  return db
    .select({ id: alerts.id, customerId: alerts.customerId, siteId: alerts.siteId, zoneId: alerts.zoneId })
    .from(alerts)
    .where(inArray(alerts.id, [...alertIds]));
}
