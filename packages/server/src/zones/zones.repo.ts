import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { ListQuery, Zone, ZoneDirectoryQuery, ZoneSummary } from '@flowbox/shared';
import { withZoneScope, zoneAt, zonesOf } from '../db/scope.ts';
import { preparedPerDb } from '../db/prepared.ts';
import { decimalOrNull, escapeLike } from '../db/values.ts';
import type { Db } from '../db/client.ts';
import { buildings, floors, sites, zones } from '../db/schema.ts';
import type { BuildingPath, ZonePath } from '../http/params.ts';

export type ZoneRow = typeof zones.$inferSelect;
export type NewZoneRow = typeof zones.$inferInsert;

// Columns are spelled out: inside a raw subquery drizzle would leave them unqualified.
const waterPointCount = sql<number>`(SELECT count(*)::int FROM water_points AS w WHERE w.zone_id = "zones"."id")`;
const answerColumns = {
  zone: zones,
  customerId: sites.customerId,
  siteId: buildings.siteId,
  building: {
    openingHours: buildings.openingHours,
    pricePerUnit: buildings.pricePerUnit,
    currency: buildings.currency,
    volumeUnit: buildings.volumeUnit,
  },
  waterPointCount,
};
type AnswerRow = {
  zone: ZoneRow;
  customerId: string;
  siteId: string;
  building: Pick<typeof buildings.$inferSelect, 'openingHours' | 'pricePerUnit' | 'currency' | 'volumeUnit'>;
  waterPointCount: number;
};

export async function listZones(db: Db, path: BuildingPath, query: ListQuery) {
  const conditions = [zonesOf(path)];
  if (query.search) conditions.push(ilike(zones.name, `%${escapeLike(query.search)}%`));
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    withZoneScope(db.select(answerColumns).from(zones))
      .where(where)
      .orderBy(asc(zones.name), asc(zones.id))
      .limit(query.limit)
      .offset(query.offset),
    withZoneScope(db.select({ total: count() }).from(zones)).where(where),
  ]);
  return { items: rows.map(toApiZone), total: totalRow?.total ?? 0 };
}

/**
 * Zones across the sites of one customer, or only `siteIds` (a site manager's), ordered by site,
 * building and zone name so a dashboard reads like the hierarchy.
 */
export async function listCustomerZones(
  db: Db,
  customerId: string,
  siteIds: string[] | 'all',
  query: ZoneDirectoryQuery,
  zoneIds: string[] | 'all' = 'all',
): Promise<{ items: ZoneSummary[]; total: number }> {
  if (siteIds !== 'all' && siteIds.length === 0) return { items: [], total: 0 };
  if (zoneIds !== 'all' && zoneIds.length === 0) return { items: [], total: 0 };
  const conditions: SQL[] = [eq(sites.customerId, customerId)];
  if (siteIds !== 'all') conditions.push(inArray(sites.id, siteIds));
  if (zoneIds !== 'all') conditions.push(inArray(zones.id, zoneIds));
  if (query.site_id) conditions.push(eq(sites.id, query.site_id));
  if (query.search) conditions.push(ilike(zones.name, `%${escapeLike(query.search)}%`));
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    withZoneScope(
      db
        .select({
          zone: zones,
          customerId: sites.customerId,
          siteId: sites.id,
          siteName: sites.name,
          buildingName: buildings.name,
          floorLabel: floors.label,
          waterPointCount,
        })
        .from(zones),
    )
      .leftJoin(floors, eq(floors.id, zones.floorId))
      .where(where)
      .orderBy(asc(sites.name), asc(buildings.name), asc(zones.name), asc(zones.id))
      .limit(query.limit)
      .offset(query.offset),
    withZoneScope(db.select({ total: count() }).from(zones)).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.zone.id,
      name: row.zone.name,
      profile: row.zone.profile,
      service_level: row.zone.serviceLevel,
      valve_state: row.zone.valveState,
      water_temperature: row.zone.waterTemperature,
      water_point_count: row.waterPointCount,
      customer_id: row.customerId,
      site_id: row.siteId,
      site_name: row.siteName,
      building_id: row.zone.buildingId,
      building_name: row.buildingName,
      floor_label: row.floorLabel,
    })),
    total: totalRow?.total ?? 0,
  };
}

// A zone's overview is among the most frequent reads (the zone page, its refreshes).
const zoneAtPath = preparedPerDb((db) =>
  withZoneScope(db.select(answerColumns).from(zones))
    .where(
      zoneAt({
        customerId: sql.placeholder('customerId'),
        siteId: sql.placeholder('siteId'),
        buildingId: sql.placeholder('buildingId'),
        zoneId: sql.placeholder('zoneId'),
      }),
    )
    .prepare('find_zone'),
);

/** The zone at that place in the hierarchy: under another building, site or customer it is not found. */
export async function findZone(db: Db, path: ZonePath): Promise<Zone | undefined> {
  const [row] = (await zoneAtPath(db).execute(path)) as AnswerRow[];
  return row ? toApiZone(row) : undefined;
}

export async function findZoneRow(db: Db, path: ZonePath): Promise<ZoneRow | undefined> {
  const [row] = await withZoneScope(db.select({ zone: zones }).from(zones)).where(zoneAt(path));
  return row?.zone;
}

export async function insertZone(db: Db, values: NewZoneRow): Promise<ZoneRow> {
  const [row] = await db.insert(zones).values(values).returning();
  return row!;
}

export async function updateZone(db: Db, id: string, patch: Partial<NewZoneRow>): Promise<ZoneRow> {
  const [row] = await db
    .update(zones)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(zones.id, id))
    .returning();
  return row!;
}

/** The device state a zone mirrors from its flowboxes (valve, modes): not a user's change, so updated_at stays. */
export async function mirrorDeviceState(
  db: Db,
  id: string,
  patch: Partial<Pick<NewZoneRow, 'valveState' | 'maintenanceMode' | 'leakDetectionMode'>>,
): Promise<void> {
  await db.update(zones).set(patch).where(eq(zones.id, id));
}

/** Its water points go with it (foreign key cascade). */
export async function deleteZone(db: Db, id: string): Promise<void> {
  await db.delete(zones).where(eq(zones.id, id));
}

/** A zone's opening hours and price fall back to its building's when it has none of its own. */
function toApiZone(row: AnswerRow): Zone {
  const z = row.zone;
  const price = decimalOrNull(z.pricePerUnit);
  return {
    id: z.id,
    customer_id: row.customerId,
    site_id: row.siteId,
    building_id: z.buildingId,
    floor_id: z.floorId,
    name: z.name,
    profile: z.profile,
    service_level: z.serviceLevel,
    opening_hours: z.openingHours,
    effective_opening_hours: z.openingHours ?? row.building.openingHours,
    price_per_unit: price,
    effective_price_per_unit: price ?? decimalOrNull(row.building.pricePerUnit),
    currency: row.building.currency,
    volume_unit: row.building.volumeUnit,
    occupants: z.occupants,
    water_point_number: z.waterPointNumber,
    water_point_count: Number(row.waterPointCount),
    scheduled_closing_authorised: z.scheduledClosingAuthorised,
    leak_detection_mode: z.leakDetectionMode,
    maintenance_mode: z.maintenanceMode,
    valve_state: z.valveState,
    flowbox_model: z.flowboxModel,
    water_temperature: z.waterTemperature,
    created_at: z.createdAt.toISOString(),
  };
}
