import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Floor, FloorFlowbox, ListQuery } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { joinUp } from '../db/scope.ts';
import { floors, flowboxes, zones } from '../db/schema.ts';

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
  const paired = await pairedFlowboxesOn(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toApiFloor(r, paired.get(r.id) ?? [])), total: totalRow?.total ?? 0 };
}

/**
 * spec §3 floor "paired flowbox": the flowboxes paired (pairing finished) with these floors, with
 * their zone, in one query for a whole page. A flowbox names its floor (flowboxes.floor_id).
 */
export async function pairedFlowboxesOn(
  db: Db,
  floorIds: readonly string[],
): Promise<Map<string, FloorFlowbox[]>> {
  const byFloor = new Map<string, FloorFlowbox[]>();
  if (floorIds.length === 0) return byFloor;
  const rows = await joinUp(
    db
      .select({
        floorId: flowboxes.floorId,
        id: flowboxes.id,
        serial: flowboxes.serial,
        zoneId: flowboxes.zoneId,
        zoneName: zones.name,
      })
      .from(flowboxes),
    'flowbox',
    'zone',
  )
    .where(and(inArray(flowboxes.floorId, [...floorIds]), eq(flowboxes.pairingState, 'ready')))
    .orderBy(asc(flowboxes.serial));
  for (const row of rows) {
    const list = byFloor.get(row.floorId!) ?? [];
    list.push({ id: row.id, serial: row.serial, zone_id: row.zoneId, zone_name: row.zoneName });
    byFloor.set(row.floorId!, list);
  }
  return byFloor;
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

export function toApiFloor(row: FloorRow, paired: FloorFlowbox[]): Floor {
  return {
    id: row.id,
    building_id: row.buildingId,
    label: row.label,
    occupants: row.occupants,
    flowboxes: paired,
    created_at: row.createdAt.toISOString(),
  };
}
