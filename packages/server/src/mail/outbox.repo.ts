import { and, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { EmailStatus } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { emails } from '../db/schema.ts';

export type EmailRow = typeof emails.$inferSelect;
export type NewEmail = { to: string; subject: string; text: string; kind: string };

/** Writes emails in one statement, `queued` (due now) or `stored` (no relay to send them to). */
export async function insertEmails(
  db: Db,
  messages: NewEmail[],
  status: Extract<EmailStatus, 'queued' | 'stored'>,
  now: Date,
): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insert(emails)
    .values(messages.map((m) => ({ ...m, status, nextAttemptAt: status === 'queued' ? now : null })));
}

/**
 * Claims up to `limit` emails whose try is due, for one try each: queued ones whose time has come,
 * and sending ones whose lease ended (the instance trying them stopped before it could record the
 * outcome). SKIP LOCKED, so several instances never claim one email together; the claim counts the
 * try and holds the email until `leaseEnd`.
 */
export async function claimDueEmails(db: Db, now: Date, leaseEnd: Date, limit: number): Promise<EmailRow[]> {
  const due = db
    .select({ id: emails.id })
    .from(emails)
    .where(and(inArray(emails.status, ['queued', 'sending']), lte(emails.nextAttemptAt, now)))
    .orderBy(emails.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(emails)
    .set({ status: 'sending', attempts: sql`${emails.attempts} + 1`, nextAttemptAt: leaseEnd })
    .where(inArray(emails.id, due))
    .returning();
}

/** Records a try's outcome: sent, queued again for `nextAttemptAt`, or failed for good. */
export async function recordTry(
  db: Db,
  id: string,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'queued'; error: string; nextAttemptAt: Date }
    | { status: 'failed'; error: string },
): Promise<void> {
  const values =
    outcome.status === 'sent'
      ? { status: outcome.status, sentAt: outcome.at, nextAttemptAt: null, error: null }
      : outcome.status === 'queued'
        ? { status: outcome.status, error: outcome.error, nextAttemptAt: outcome.nextAttemptAt }
        : { status: outcome.status, error: outcome.error, nextAttemptAt: null };
  await db.update(emails).set(values).where(eq(emails.id, id));
}

/** One page of the outbox, newest first, and the count of all emails. */
export async function outboxPage(
  db: Db,
  limit: number,
  offset: number,
): Promise<{ rows: EmailRow[]; total: number }> {
  const [rows, [totalRow]] = await Promise.all([
    db.select().from(emails).orderBy(desc(emails.createdAt), desc(emails.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(emails),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
