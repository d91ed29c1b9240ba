import type { NotificationPreferences } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

/** The user's stored preferences: null until they choose (docs/alerts.md "How each person is told"). */
export async function storedPreferences(db: Db, userId: string): Promise<unknown> {
  const [row] = await db
    .select({ preferences: users.notificationPreferences })
    .from(users)
    .where(eq(users.id, userId));
  return row?.preferences ?? null;
}

export async function savePreferences(
  db: Db,
  userId: string,
  preferences: NotificationPreferences,
  at: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ notificationPreferences: preferences, updatedAt: at })
    .where(eq(users.id, userId));
}
