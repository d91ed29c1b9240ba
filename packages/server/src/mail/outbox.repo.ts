import { and, count, desc, eq, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import type { EmailStatus } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/values.ts';
import { emails } from '../db/schema.ts';

export type EmailRow = typeof emails.$inferSelect;
export type NewEmail = {
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** Held until then (quiet hours, docs/alerts.md "Quiet hours"); due at once without it. */
  notBefore?: Date;
};

/**
 * Writes emails in one statement, `queued` (due now, or at their `notBefore`) or `stored` (no relay
 * to send them to).
 */
export async function insertEmails(
  db: Db,
  messages: NewEmail[],
  status: Extract<EmailStatus, 'queued' | 'stored'>,
  now: Date,
): Promise<void> {
  if (messages.length === 0) return;
  await db.insert(emails).values(
    messages.map(({ notBefore, ...m }) => ({
      ...m,
      status,
      // A stored email is never tried; its hold is kept to say when it would have gone.
      nextAttemptAt: status === 'queued' ? (notBefore ?? now) : (notBefore ?? null),
    })),
  );
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

/**
 * One page of the outbox, newest first, and the count of the emails it pages through: all, or
 * those whose recipient or subject holds `search` (literally, ignoring case; the text is not
 * searched, so the work stays a scan of two short columns).
 */
export async function outboxPage(
  db: Db,
  page: { limit: number; offset: number; search?: string | undefined },
): Promise<{ rows: EmailRow[]; total: number }> {
  const like = page.search ? `%${escapeLike(page.search)}%` : undefined;
  const where = like ? or(ilike(emails.to, like), ilike(emails.subject, like)) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(emails)
      .where(where)
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(emails).where(where),
  ]);
  return { rows, total: totalRow?.total ?? 0 };
}
