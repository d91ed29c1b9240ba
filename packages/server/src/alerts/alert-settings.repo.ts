import type { AlertCategory } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { alertCategorySettings } from '../db/schema.ts';

export type CategorySettingRow = typeof alertCategorySettings.$inferSelect;

/** The columns a category's setting stores besides its category. */
export type CategorySettingValues = Omit<CategorySettingRow, 'category'>;

/** The stored setting of one category; none while it keeps its defaults. */
export async function findCategorySettingRow(
  db: Db,
  category: AlertCategory,
): Promise<CategorySettingRow | undefined> {
  const [row] = await db
    .select()
    .from(alertCategorySettings)
    .where(eq(alertCategorySettings.category, category));
  return row;
}

/** Every stored category setting. */
export async function listCategorySettingRows(db: Db): Promise<CategorySettingRow[]> {
  return db.select().from(alertCategorySettings);
}

export async function upsertCategorySetting(
  db: Db,
  category: AlertCategory,
  values: CategorySettingValues,
): Promise<void> {
  await db
    .insert(alertCategorySettings)
    .values({ category, ...values })
    .onConflictDoUpdate({ target: alertCategorySettings.category, set: values });
}
