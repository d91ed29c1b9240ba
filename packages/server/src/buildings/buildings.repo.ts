import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { Building, ListQuery } from '@flowbox/shared';
import { buildingAt, buildingsOf, siteAt, withBuildingScope } from '../db/scope.ts';
import { decimalOrNull, escapeLike } from '../db/values.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { buildings, sites } from '../db/schema.ts';
import type { BuildingPath } from '../http/params.ts';

export type BuildingRow = typeof buildings.$inferSelect;
export type NewBuildingRow = typeof buildings.$inferInsert;

// Columns are spelled out: inside a raw subquery drizzle would leave them unqualified.
const floorCount = sql<number>`(SELECT count(*)::int FROM floors AS f WHERE f.building_id = "buildings"."id")`;
const zoneCount = sql<number>`(SELECT count(*)::int FROM zones AS z WHERE z.building_id = "buildings"."id")`;
const answerColumns = { building: buildings, customerId: sites.customerId, floorCount, zoneCount };

export async function findSiteRow(db: Db, customerId: string, siteId: string) {
  const [row] = await db.select().from(sites).where(siteAt({ customerId, siteId }));
  return row;
}

export async function siteExists(db: Db, customerId: string, siteId: string): Promise<boolean> {
  return Boolean(await findSiteRow(db, customerId, siteId));
}

export async function listBuildings(db: Db, customerId: string, siteId: string, query: ListQuery) {
  const conditions = [buildingsOf({ customerId, siteId })];
  if (query.search) conditions.push(ilike(buildings.name, `%${escapeLike(query.search)}%`));
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    withBuildingScope(db.select(answerColumns).from(buildings))
      .where(where)
      .orderBy(asc(buildings.name), asc(buildings.id))
      .limit(query.limit)
      .offset(query.offset),
    withBuildingScope(db.select({ total: count() }).from(buildings)).where(where),
  ]);
  return { items: rows.map(toApiBuilding), total: totalRow?.total ?? 0 };
}

/** The building at that place in the hierarchy: under another site or customer it is not found. */
export async function findBuilding(db: Db, path: BuildingPath): Promise<Building | undefined> {
  const [row] = await withBuildingScope(db.select(answerColumns).from(buildings)).where(buildingAt(path));
  return row ? toApiBuilding(row) : undefined;
}

export async function findBuildingRow(db: Db, path: BuildingPath): Promise<BuildingRow | undefined> {
  const [row] = await withBuildingScope(db.select({ building: buildings }).from(buildings)).where(
    buildingAt(path),
  );
  return row?.building;
}

/** The building of a nested call (floors, zones): 404 when the path names none. */
export async function requireBuildingRow(db: Db, path: BuildingPath): Promise<BuildingRow> {
  const row = await findBuildingRow(db, path);
  if (!row) throw notFound();
  return row;
}

export async function insertBuilding(db: Db, values: NewBuildingRow): Promise<BuildingRow> {
  const [row] = await db.insert(buildings).values(values).returning();
  return row!;
}

export async function updateBuilding(
  db: Db,
  id: string,
  patch: Partial<NewBuildingRow>,
): Promise<BuildingRow> {
  const [row] = await db
    .update(buildings)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(buildings.id, id))
    .returning();
  return row!;
}

/** Its floors, zones, water points and image rows go with it (foreign keys cascade). */
export async function deleteBuilding(db: Db, id: string): Promise<void> {
  await db.delete(buildings).where(eq(buildings.id, id));
}

function toApiBuilding(row: {
  building: BuildingRow;
  customerId: string;
  floorCount: number;
  zoneCount: number;
}): Building {
  const b = row.building;
  return {
    id: b.id,
    customer_id: row.customerId,
    site_id: b.siteId,
    name: b.name,
    type: b.type,
    plan: b.plan,
    picture: b.picture,
    address: b.address,
    city: b.city,
    zipCode: b.zipCode,
    country: b.country,
    nbfloor: b.nbfloor,
    occupants: b.occupants,
    nbequipment: b.nbequipment,
    opening_hours: b.openingHours,
    timezone: b.timezone,
    volume_unit: b.volumeUnit,
    currency: b.currency,
    first_day_of_week: b.firstDayOfWeek,
    weekend: b.weekend,
    price_per_unit: decimalOrNull(b.pricePerUnit),
    latitude: b.latitude,
    longitude: b.longitude,
    floor_count: Number(row.floorCount),
    zone_count: Number(row.zoneCount),
    created_at: b.createdAt.toISOString(),
  };
}
