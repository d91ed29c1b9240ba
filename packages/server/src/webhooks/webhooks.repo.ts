import {
  ROLES,
  type Language,
  type WebhookDeliveriesPage,
  type WebhookDeliveriesQuery,
} from '@flowbox/shared';
import { and, count, desc, eq, getTableColumns, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { cursorTime, cursorUuid, decodeCursor, encodeCursor } from '../db/cursor.ts';
import { customers, users, webhookDeliveries, webhookEvents, webhooks } from '../db/schema.ts';

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery claimed for a try, with what it sends and where. */
export type DueWebhookDelivery = WebhookDeliveryRow & {
  url: string;
  secret: string;
  customerId: string;
  type: string;
  eventCreatedAt: Date;
  data: Record<string, unknown>;
};

/**
 * The channel the trigger on `events` (migration 0029) notifies once deliveries are queued: the
 * instances hear it when the transaction commits, never before.
 */
export const WEBHOOKS_CHANNEL = 'flowbox_webhooks';

export async function customerExists(db: Db, customerId: string): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  return row !== undefined;
}

export function webhooksOf(db: Db, customerId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.customerId, customerId))
    .orderBy(webhooks.createdAt, webhooks.id);
}

export async function countWebhooks(db: Db, customerId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhooks).where(eq(webhooks.customerId, customerId));
  return row!.n;
}

/** The customer's webhook of this id; none when it is another's. */
export async function findWebhook(
  db: Db,
  customerId: string,
  id: string,
  forUpdate = false,
): Promise<WebhookRow | undefined> {
  const query = db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.customerId, customerId), eq(webhooks.id, id)));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertWebhook(db: Db, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [saved] = await db.insert(webhooks).values(row).returning();
  return saved!;
}

export async function updateWebhook(
  db: Db,
  id: string,
  patch: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow> {
  const [row] = await db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning();
  return row!;
}

export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

/** A webhook disabled: what it had not delivered yet is given up (it is never sent later). */
export async function giveUpQueued(db: Db, webhookId: string, reason: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', error: reason, nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'queued')));
}

/** "Send a test event": an event of its own, for this webhook only, due now. */
export async function queueTestEvent(
  db: Db,
  webhook: WebhookRow,
  event: { id: string; at: Date; data: Record<string, unknown> },
): Promise<WebhookDeliveryRow> {
  await db.insert(webhookEvents).values({
    id: event.id,
    customerId: webhook.customerId,
    type: 'webhook.test',
    createdAt: event.at,
    data: event.data,
  });
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      webhookId: webhook.id,
      eventId: event.id,
      status: 'queued',
      nextAttemptAt: event.at,
      createdAt: event.at,
    })
    .returning();
  return row!;
}

/** Keyset cursor: when the last delivery shown was queued, and its id. */
const DELIVERY_CURSOR = { at: cursorTime, id: cursorUuid };

export async function deliveriesPage(
  db: Db,
  webhookId: string,
  query: WebhookDeliveriesQuery,
): Promise<WebhookDeliveriesPage> {
  const conditions = [eq(webhookDeliveries.webhookId, webhookId)];
  if (query.cursor) {
    const { at, id } = decodeCursor(query.cursor, DELIVERY_CURSOR);
    conditions.push(
      or(
        lt(webhookDeliveries.createdAt, at),
        and(eq(webhookDeliveries.createdAt, at), lt(webhookDeliveries.id, id)),
      )!,
    );
  }
  const rows = await db
    .select({ delivery: webhookDeliveries, type: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1)?.delivery;
  return {
    items: page.map(({ delivery: d, type }) => ({
      id: d.id,
      event_id: d.eventId,
      event_type: type,
      status: d.status,
      attempts: d.attempts,
      response_status: d.responseStatus,
      error: d.error,
      created_at: d.createdAt.toISOString(),
      last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
      next_attempt_at: d.status === 'queued' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
      delivered_at: d.deliveredAt?.toISOString() ?? null,
    })),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}

/**
 * Claims up to `limit` deliveries whose try is due (queued ones whose time has come, and sending
 * ones whose lease ended: the instance trying them stopped), SKIP LOCKED so that several instances
 * never claim one together; the claim counts the try and holds it until `leaseEnd`. A disabled
 * webhook has nothing queued but its test events.
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  leaseEnd: Date,
  limit: number,
): Promise<DueWebhookDelivery[]> {
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['queued', 'sending']),
        lte(webhookDeliveries.nextAttemptAt, now),
      ),
    )
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(webhookDeliveries)
    .set({
      status: 'sending',
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      nextAttemptAt: leaseEnd,
      lastAttemptAt: now,
    })
    .from(webhooks)
    .where(and(inArray(webhookDeliveries.id, due), eq(webhooks.id, webhookDeliveries.webhookId)))
    .returning({
      ...getTableColumns(webhookDeliveries),
      url: webhooks.url,
      secret: webhooks.secret,
      customerId: webhooks.customerId,
    });
  if (claimed.length === 0) return [];
  const events = await db
    .select()
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, [...new Set(claimed.map((d) => d.eventId))]));
  const byId = new Map(events.map((event) => [event.id, event]));
  return claimed.flatMap((delivery) => {
    const event = byId.get(delivery.eventId);
    return event
      ? [{ ...delivery, type: event.type, eventCreatedAt: event.createdAt, data: event.data }]
      : [];
  });
}

/** The receiver took it (2xx): delivered, and its webhook's failures are over. */
export async function recordDelivered(
  db: Db,
  delivery: WebhookDeliveryRow,
  outcome: { responseStatus: number; at: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: 'delivered',
        responseStatus: outcome.responseStatus,
        error: null,
        deliveredAt: outcome.at,
        nextAttemptAt: null,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    await tx
      .update(webhooks)
      .set({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: outcome.at })
      .where(eq(webhooks.id, delivery.webhookId));
  });
}

/**
 * A failed try, in the caller's transaction: queued again for `nextAttemptAt`, or failed for good
 * (which counts one more consecutive failure). The webhook's failing time starts at its first
 * failed try since a delivery. Answers the webhook as it now stands, locked.
 */
export async function recordFailedTry(
  tx: Db,
  delivery: WebhookDeliveryRow,
  outcome: { responseStatus: number | null; error: string; nextAttemptAt: Date | null; at: Date },
): Promise<WebhookRow | undefined> {
  await tx
    .update(webhookDeliveries)
    .set(
      outcome.nextAttemptAt
        ? {
            status: 'queued',
            responseStatus: outcome.responseStatus,
            error: outcome.error,
            nextAttemptAt: outcome.nextAttemptAt,
          }
        : {
            status: 'failed',
            responseStatus: outcome.responseStatus,
            error: outcome.error,
            nextAttemptAt: null,
          },
    )
    .where(eq(webhookDeliveries.id, delivery.id));
  const [webhook] = await tx
    .update(webhooks)
    .set({
      consecutiveFailures: sql`${webhooks.consecutiveFailures} + ${outcome.nextAttemptAt ? 0 : 1}`,
      failingSince: sql`coalesce(${webhooks.failingSince}, ${outcome.at})`,
    })
    .where(eq(webhooks.id, delivery.webhookId))
    .returning();
  return webhook;
}

/** Deliveries done (delivered or failed) before `before`, and their events, at most `limit` at a time. */
export async function pruneDeliveries(db: Db, before: Date, limit: number): Promise<number> {
  const old = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['delivered', 'failed']),
        lt(webhookDeliveries.createdAt, before),
      ),
    )
    .limit(limit);
  const deleted = await db
    .delete(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, old))
    .returning({ id: webhookDeliveries.id });
  await db.execute(
    sql`DELETE FROM ${webhookEvents} e WHERE e.created_at < ${before}
        AND NOT EXISTS (SELECT 1 FROM ${webhookDeliveries} d WHERE d.event_id = e.id)`,
  );
  return deleted.length;
}

/** Who is told a webhook was disabled: the customer's customer managers. */
export function customerManagersOf(
  db: Db,
  customerId: string,
): Promise<{ email: string; firstname: string; language: Language }[]> {
  return db
    .select({ email: users.email, firstname: users.firstname, language: users.language })
    .from(users)
    .where(and(eq(users.customerId, customerId), eq(users.role, ROLES.customer_manager)));
}
