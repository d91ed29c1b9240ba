import { and, asc, count, eq } from 'drizzle-orm';
import type { ListQuery, WaterPoint } from '@flowbox/shared';
import { decimalOrNull } from '../db/values.ts';
import type { Db } from '../db/client.ts';
import { waterPoints } from '../db/schema.ts';

export type WaterPointRow = typeof waterPoints.$inferSelect;
export type NewWaterPointRow = typeof waterPoints.$inferInsert;

export async function listWaterPoints(db: Db, zoneId: string, query: ListQuery) {
  const where = eq(waterPoints.zoneId, zoneId);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(waterPoints)
      .where(where)
      .orderBy(asc(waterPoints.label), asc(waterPoints.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(waterPoints).where(where),
  ]);
  return { items: rows.map(toApiWaterPoint), total: totalRow?.total ?? 0 };
}

export async function findWaterPoint(db: Db, zoneId: string, id: string): Promise<WaterPointRow | undefined> {
  const [row] = await db
    .select()
    .from(waterPoints)
    .where(and(eq(waterPoints.id, id), eq(waterPoints.zoneId, zoneId)));
  return row;
}

export async function insertWaterPoint(db: Db, values: NewWaterPointRow): Promise<WaterPointRow> {
  const [row] = await db.insert(waterPoints).values(values).returning();
  return row!;
}

export async function updateWaterPoint(
  db: Db,
  id: string,
  patch: Partial<NewWaterPointRow>,
): Promise<WaterPointRow> {
  const [row] = await db
    .update(waterPoints)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(waterPoints.id, id))
    .returning();
  return row!;
}

export async function deleteWaterPoint(db: Db, id: string): Promise<void> {
  await db.delete(waterPoints).where(eq(waterPoints.id, id));
}

export function toApiWaterPoint(row: WaterPointRow): WaterPoint {
  return {
    id: row.id,
    zone_id: row.zoneId,
    label: row.label,
    type: row.type,
    location: row.location,
    nominal_flow_lpm: decimalOrNull(row.nominalFlowLpm),
    created_at: row.createdAt.toISOString(),
  };
}
