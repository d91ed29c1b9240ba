import type { AlertCategory, PushUrgency } from '@flowbox/shared';
import { and, asc, eq, getTableColumns, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pushMessages, pushSnoozes, pushSubscriptions } from '../db/schema.ts';

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type PushMessageRow = typeof pushMessages.$inferSelect;

/** A message claimed for a try, with the browser it goes to. */
export type DuePushMessage = PushMessageRow & {
  endpoint: string;
  p256dh: string;
  auth: string;
};

/**
 * A browser of `userId`: a new one, or the same endpoint again with its keys (a browser asks its
 * push service anew, or another user signed in on it: the browser is theirs from now on).
 */
export async function saveSubscription(
  db: Db,
  row: { userId: string; endpoint: string; p256dh: string; auth: string; label: string },
): Promise<PushSubscriptionRow> {
  const [saved] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth, label: row.label, failureCount: 0 },
    })
    .returning();
  return saved!;
}

/** Deletes the user's own browser of this endpoint; false when they have none of it. */
export async function deleteOwnSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

export function subscriptionsOf(db: Db, userId: string): Promise<PushSubscriptionRow[]> {
  return db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** A message for each browser of a user. */
export type NewPushMessage = {
  userId: string;
  payload: string;
  urgency: PushUrgency;
  ttlS: number;
  alertId: string | null;
  readingAt: Date | null;
  /** An alert's zone and category: a user who snoozed them (`pushSnoozes`) is not sent it. */
  snoozable?: { zoneId: string; category: AlertCategory };
  /** Held until then (quiet hours, docs/alerts.md "Quiet hours"); due at once without it. */
  notBefore?: Date;
};

/**
 * Queues each message once for every browser of its user, due now, in one statement; answers how
 * many were queued (a user without a browser gets none, nor one who snoozed its zone and category).
 */
export async function insertPushMessages(db: Db, messages: NewPushMessage[], now: Date): Promise<number> {
  if (messages.length === 0) return 0;
  const snoozed = await snoozedAt(db, messages, now);
  const told = messages.filter(
    (m) => !m.snoozable || !snoozed.has(snoozeKey(m.userId, m.snoozable.zoneId, m.snoozable.category)),
  );
  if (told.length === 0) return 0;
  const userIds = [...new Set(told.map((m) => m.userId))];
  const browsers = await db
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, userIds));
  const rows = told.flatMap((m) =>
    browsers
      .filter((b) => b.userId === m.userId)
      .map((b) => ({
        subscriptionId: b.id,
        alertId: m.alertId,
        payload: m.payload,
        urgency: m.urgency,
        ttlS: m.ttlS,
        status: 'queued' as const,
        nextAttemptAt: m.notBefore ?? now,
        readingAt: m.readingAt,
      })),
  );
  if (rows.length > 0) await db.insert(pushMessages).values(rows);
  return rows.length;
}

/** Of these users, those with at least one browser subscribed. */
export async function usersWithBrowsers(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...userIds]));
  return new Set(rows.map((r) => r.userId));
}

const snoozeKey = (userId: string, zoneId: string, category: string) => `${userId} ${zoneId} ${category}`;

/** The snoozes of these messages' users still running at `now`, as user, zone and category keys. */
async function snoozedAt(db: Db, messages: NewPushMessage[], now: Date): Promise<Set<string>> {
  const userIds = [...new Set(messages.filter((m) => m.snoozable).map((m) => m.userId))];
  if (userIds.length === 0) return new Set();
  const running = await db
    .select({ userId: pushSnoozes.userId, zoneId: pushSnoozes.zoneId, category: pushSnoozes.category })
    .from(pushSnoozes)
    .where(and(inArray(pushSnoozes.userId, userIds), gt(pushSnoozes.until, now)));
  return new Set(running.map((s) => snoozeKey(s.userId, s.zoneId, s.category)));
}

/** The user's pushes of this category in this zone are held back until `until` (a later snooze moves it). */
export async function saveSnooze(
  db: Db,
  row: { userId: string; zoneId: string; category: AlertCategory; until: Date },
): Promise<void> {
  await db
    .insert(pushSnoozes)
    .values(row)
    .onConflictDoUpdate({
      target: [pushSnoozes.userId, pushSnoozes.zoneId, pushSnoozes.category],
      set: { until: row.until },
    });
}

/**
 * Claims up to `limit` messages whose try is due (queued ones whose time has come, and sending ones
 * whose lease ended: the instance trying them stopped), SKIP LOCKED so that several instances never
 * claim one together; the claim counts the try and holds the message until `leaseEnd`.
 */
export async function claimDuePushMessages(
  db: Db,
  now: Date,
  leaseEnd: Date,
  limit: number,
): Promise<DuePushMessage[]> {
  const due = db
    .select({ id: pushMessages.id })
    .from(pushMessages)
    .where(and(inArray(pushMessages.status, ['queued', 'sending']), lte(pushMessages.nextAttemptAt, now)))
    .orderBy(pushMessages.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(pushMessages)
    .set({ status: 'sending', attempts: sql`${pushMessages.attempts} + 1`, nextAttemptAt: leaseEnd })
    .from(pushSubscriptions)
    .where(and(inArray(pushMessages.id, due), eq(pushSubscriptions.id, pushMessages.subscriptionId)))
    .returning({
      ...getTableColumns(pushMessages),
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    });
}

/** The push service took the message: it is sent, and its browser counts a success. */
export async function recordPushSent(db: Db, message: PushMessageRow, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(pushMessages)
      .set({ status: 'sent', sentAt: at, nextAttemptAt: null, error: null })
      .where(eq(pushMessages.id, message.id));
    await tx
      .update(pushSubscriptions)
      .set({ lastSuccessAt: at, failureCount: 0 })
      .where(eq(pushSubscriptions.id, message.subscriptionId));
  });
}

/** A failed try: queued again for `nextAttemptAt`, or failed for good; its browser counts a failure. */
export async function recordPushFailure(
  db: Db,
  message: PushMessageRow,
  outcome: { error: string; nextAttemptAt: Date | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(pushMessages)
      .set(
        outcome.nextAttemptAt
          ? { status: 'queued', error: outcome.error, nextAttemptAt: outcome.nextAttemptAt }
          : { status: 'failed', error: outcome.error, nextAttemptAt: null },
      )
      .where(eq(pushMessages.id, message.id));
    await tx
      .update(pushSubscriptions)
      .set({ failureCount: sql`${pushSubscriptions.failureCount} + 1` })
      .where(eq(pushSubscriptions.id, message.subscriptionId));
  });
}

/** The push service says the browser's subscription is gone (404, 410): it and its messages go. */
export async function deleteSubscription(db: Db, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/**
 * Each alert's first notification a push service took, and the reading it followed: "reading →
 * notification sent" per alert (issue 33). One query for a page of alerts, on push_messages_alert_idx.
 */
export async function firstPushesOfAlerts(
  db: Db,
  alertIds: readonly string[],
): Promise<Map<string, { sentAt: Date; readingAt: Date | null }>> {
  const byAlert = new Map<string, { sentAt: Date; readingAt: Date | null }>();
  if (alertIds.length === 0) return byAlert;
  const rows = await db
    .select({
      alertId: pushMessages.alertId,
      sentAt: sql<Date>`min(${pushMessages.sentAt})`.mapWith(pushMessages.sentAt),
      readingAt: sql<Date | null>`min(${pushMessages.readingAt})`.mapWith(pushMessages.readingAt),
    })
    .from(pushMessages)
    .where(and(inArray(pushMessages.alertId, [...alertIds]), eq(pushMessages.status, 'sent')))
    .groupBy(pushMessages.alertId);
  for (const row of rows)
    if (row.alertId) byAlert.set(row.alertId, { sentAt: row.sentAt, readingAt: row.readingAt });
  return byAlert;
}
