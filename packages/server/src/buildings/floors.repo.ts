import { and, asc, count, eq } from 'drizzle-orm';
import type { Floor, ListQuery } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { floors } from '../db/schema.ts';

export type FloorRow = typeof floors.$inferSelect;
export type NewFloorRow = typeof floors.$inferInsert;

/** Floors in the order they were added (the order a manager walks the building in). */
export async function listFloors(db: Db, buildingId: string, query: ListQuery) {
  const where = eq(floors.buildingId, buildingId);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(floors)
      .where(where)
      .orderBy(asc(floors.createdAt), asc(floors.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(floors).where(where),
  ]);
  return { items: rows.map(toApiFloor), total: totalRow?.total ?? 0 };
}

export async function findFloor(db: Db, buildingId: string, floorId: string): Promise<FloorRow | undefined> {
  const [row] = await db
    .select()
    .from(floors)
    .where(and(eq(floors.id, floorId), eq(floors.buildingId, buildingId)));
  return row;
}

export async function insertFloor(db: Db, values: NewFloorRow): Promise<FloorRow> {
  const [row] = await db.insert(floors).values(values).returning();
  return row!;
}

export async function updateFloor(db: Db, id: string, patch: Partial<NewFloorRow>): Promise<FloorRow> {
  const [row] = await db
    .update(floors)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(floors.id, id))
    .returning();
  return row!;
}

/** Its zones stay in the building, detached from any floor (zones.floor_id is set null). */
export async function deleteFloor(db: Db, id: string): Promise<void> {
  await db.delete(floors).where(eq(floors.id, id));
}

export function toApiFloor(row: FloorRow): Floor {
  return {
    id: row.id,
    building_id: row.buildingId,
    label: row.label,
    occupants: row.occupants,
    created_at: row.createdAt.toISOString(),
  };
}
