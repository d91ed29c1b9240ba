import type { LiveMessage } from '@flowbox/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** The PostgreSQL channel every server instance listens on (DESIGN.md §6, §7). */
export const LIVE_CHANNEL = 'flowbox_live';

/**
 * Queues a live message with the change that causes it: NOTIFY is transactional, so it reaches the
 * browsers of every instance once the transaction commits, and never when it rolls back.
 */
export async function notifyLive(db: Db, message: LiveMessage): Promise<void> {
  await db.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(message)})`);
}

/**
 * `notifyLive` for a batch (a deletion's flowboxes, however many): one statement and one parameter
 * instead of a round trip each, still one notification a message.
 */
export async function notifyLiveAll(db: Db, messages: readonly LiveMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await db.execute(
    sql`SELECT pg_notify(${LIVE_CHANNEL}, m::text)
        FROM json_array_elements(${JSON.stringify(messages)}::json) AS m`,
  );
}
