import type { HourFigure, LeakAnalysis } from '@flowbox/shared';
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { arrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { joinUp, withZoneScope, zoneAt } from '../db/scope.ts';
import {
  buildingLeaks,
  buildings,
  buildingWaterBalance,
  consumptionHourly,
  zoneLeaks,
  zones,
} from '../db/schema.ts';
import type { ZonePath } from '../http/params.ts';

/** A zone whose analytics are kept: its building's time zone, and the occupants of both. */
export type LeakZone = {
  zoneId: string;
  buildingId: string;
  timezone: string;
  occupants: number | null;
};

export type LeakRow = typeof zoneLeaks.$inferSelect;
export type BuildingLeakRow = typeof buildingLeaks.$inferSelect;
type LeakColumns = Omit<LeakRow, 'zoneId'>;

export async function leakZones(db: Db, zoneIds: readonly string[]): Promise<LeakZone[]> {
  if (zoneIds.length === 0) return [];
  return joinUp(
    db
      .select({
        zoneId: zones.id,
        buildingId: zones.buildingId,
        timezone: buildings.timezone,
        occupants: zones.occupants,
      })
      .from(zones),
    'zone',
    'building',
  ).where(sql`${zones.id} = ANY(${arrayLiteral(zoneIds)}::uuid[])`);
}

/** The zone a full path names (customer > site > building > zone): its time zone and occupants. */
export async function leakZoneOnPath(db: Db, path: ZonePath) {
  const [zone] = await withZoneScope(
    db.select({ timezone: buildings.timezone, occupants: zones.occupants }).from(zones),
  ).where(zoneAt(path));
  return zone ?? null;
}

/** The building's zones but its main supply (docs/decisions.md: left out of every scope of several zones). */
const notMainSupply = isNull(buildingWaterBalance.mainSupplyZoneId);
const mainSupplyOf = eq(buildingWaterBalance.mainSupplyZoneId, zones.id);

/** A building's time zone, its occupants, and its zones' occupants (for the default allowance). */
export async function leakBuilding(db: Db, buildingId: string) {
  const [building] = await db
    .select({ timezone: buildings.timezone, occupants: buildings.occupants })
    .from(buildings)
    .where(eq(buildings.id, buildingId));
  if (!building) return null;
  const members = await db
    .select({ zoneId: zones.id, occupants: zones.occupants })
    .from(zones)
    .leftJoin(buildingWaterBalance, mainSupplyOf)
    .where(and(eq(zones.buildingId, buildingId), notMainSupply));
  return { ...building, zones: members };
}

/** The zones' water per UTC hour in [from, to), their flowboxes summed (at most one row an hour). */
export async function hoursOf(
  db: Db,
  zoneIds: readonly string[],
  from: Date,
  to: Date,
): Promise<HourFigure[]> {
  if (zoneIds.length === 0) return [];
  const rows = await db
    .select({ hour: consumptionHourly.hour, volumeMl: sql<string>`sum(${consumptionHourly.volumeMl})` })
    .from(consumptionHourly)
    .where(
      and(
        inArray(consumptionHourly.zoneId, [...zoneIds]),
        gte(consumptionHourly.hour, from),
        lt(consumptionHourly.hour, to),
      ),
    )
    .groupBy(consumptionHourly.hour);
  return rows.map((r) => ({ hour: r.hour, volumeMl: Number(r.volumeMl) }));
}

/** The stored columns of an analysis. */
export function leakColumns(analysis: LeakAnalysis, asOf: Date): LeakColumns {
  const flow = analysis.continuousFlow;
  return {
    asOf,
    continuousHours: flow.hours,
    continuousSince: flow.since === null ? null : new Date(flow.since),
    continuousAtLeast: flow.atLeast,
    continuousFloorLph: flow.floorLph,
    nightFlowLph: analysis.nightFlowLph,
    allowanceLph: analysis.allowanceLph,
    aboveAllowance: analysis.aboveAllowance,
    lossLph: analysis.lossLph,
    lossLitresDay: analysis.lossLitresPerDay,
    continuousFlowDays: analysis.continuousFlowDays.length,
    nights: analysis.nights,
  };
}

/**
 * The zone's stored analytics, its row locked for the transaction: instances refreshing one zone
 * take turns, and the later one reads the hours the earlier one saw, so the last write is the newest.
 */
export async function lockZoneLeaks(tx: Db, zoneId: string): Promise<LeakRow | null> {
  const [row] = await tx.select().from(zoneLeaks).where(eq(zoneLeaks.zoneId, zoneId)).for('update');
  return row ?? null;
}

export async function lockBuildingLeaks(tx: Db, buildingId: string): Promise<BuildingLeakRow | null> {
  const [row] = await tx
    .select()
    .from(buildingLeaks)
    .where(eq(buildingLeaks.buildingId, buildingId))
    .for('update');
  return row ?? null;
}

export async function saveZoneLeaks(tx: Db, zoneId: string, columns: LeakColumns): Promise<void> {
  await tx
    .insert(zoneLeaks)
    .values({ zoneId, ...columns })
    .onConflictDoUpdate({ target: zoneLeaks.zoneId, set: columns });
}

export async function saveBuildingLeaks(tx: Db, buildingId: string, columns: LeakColumns): Promise<void> {
  await tx
    .insert(buildingLeaks)
    .values({ buildingId, ...columns })
    .onConflictDoUpdate({ target: buildingLeaks.buildingId, set: columns });
}

export async function findZoneLeaks(db: Db, zoneId: string): Promise<LeakRow | null> {
  const [row] = await db.select().from(zoneLeaks).where(eq(zoneLeaks.zoneId, zoneId));
  return row ?? null;
}

export async function findBuildingLeaks(db: Db, buildingId: string): Promise<BuildingLeakRow | null> {
  const [row] = await db.select().from(buildingLeaks).where(eq(buildingLeaks.buildingId, buildingId));
  return row ?? null;
}

/** The stored analytics of each of a building's zones (for the building's cost, priced per zone). */
export async function buildingZoneLeaks(db: Db, buildingId: string) {
  return db
    .select({ zoneId: zoneLeaks.zoneId, lossLitresDay: zoneLeaks.lossLitresDay })
    .from(zoneLeaks)
    .innerJoin(zones, eq(zones.id, zoneLeaks.zoneId))
    .leftJoin(buildingWaterBalance, mainSupplyOf)
    .where(and(eq(zones.buildingId, buildingId), notMainSupply));
}

/** The dashboard's leak figures over these zones: continuous flow, night above allowance, loss a day. */
export async function leakSummary(db: Db, zoneIds: readonly string[]) {
  if (zoneIds.length === 0)
    return { continuous_flow_zones: 0, night_above_allowance_zones: 0, loss_litres_per_day: 0 };
  const [row] = await db
    .select({
      continuous: sql<string>`count(*) FILTER (WHERE ${zoneLeaks.continuousHours} >= 24)`,
      above: sql<string>`count(*) FILTER (WHERE ${zoneLeaks.aboveAllowance})`,
      loss: sql<string | null>`sum(${zoneLeaks.lossLitresDay})`,
    })
    .from(zoneLeaks)
    .where(inArray(zoneLeaks.zoneId, [...zoneIds]));
  return {
    continuous_flow_zones: Number(row?.continuous ?? 0),
    night_above_allowance_zones: Number(row?.above ?? 0),
    loss_litres_per_day: Math.round(Number(row?.loss ?? 0) * 1000) / 1000,
  };
}
