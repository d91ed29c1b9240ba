import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Several instances start together on one empty database (compose.yaml starts two): each seeds
 * under this lock, after checking again, so the first writes and the others find it done.
 */
export async function lockSeeding(tx: Db): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('flowbox:seed', 0))`);
}
