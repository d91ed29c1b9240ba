import type { Currency, VolumeUnit, Weekday } from '@flowbox/shared';
import { and, asc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  buildings,
  consumptionDaily,
  customers,
  consumptionHourly,
  flowboxes,
  sites,
  zoneSubscriptions,
  zones,
} from '../db/schema.ts';

/** A zone in a consumption scope, with the settings of its building that its figures follow. */
export type ScopeZone = {
  zoneId: string;
  zoneName: string;
  buildingId: string;
  buildingName: string;
  siteId: string;
  siteName: string;
  customerId: string;
  customerName: string;
  timezone: string;
  volumeUnit: VolumeUnit;
  currency: Currency;
  firstDayOfWeek: Weekday;
};

/** Which zones: every one, a customer's (optionally some of its sites), a site's, a building's, one. */
export type ZoneFilter = {
  customerId?: string;
  siteIds?: string[];
  siteId?: string;
  buildingId?: string;
  zoneId?: string;
};

export async function scopeZones(db: Db, filter: ZoneFilter): Promise<ScopeZone[]> {
  const conditions: SQL[] = [];
  if (filter.customerId) conditions.push(eq(sites.customerId, filter.customerId));
  if (filter.siteIds) conditions.push(inArray(sites.id, filter.siteIds.length ? filter.siteIds : [NONE]));
  if (filter.siteId) conditions.push(eq(sites.id, filter.siteId));
  if (filter.buildingId) conditions.push(eq(buildings.id, filter.buildingId));
  if (filter.zoneId) conditions.push(eq(zones.id, filter.zoneId));
  return db
    .select({
      zoneId: zones.id,
      zoneName: zones.name,
      buildingId: buildings.id,
      buildingName: buildings.name,
      siteId: sites.id,
      siteName: sites.name,
      customerId: sites.customerId,
      customerName: customers.name,
      timezone: buildings.timezone,
      volumeUnit: buildings.volumeUnit,
      currency: buildings.currency,
      firstDayOfWeek: buildings.firstDayOfWeek,
    })
    .from(zones)
    .innerJoin(buildings, eq(buildings.id, zones.buildingId))
    .innerJoin(sites, eq(sites.id, buildings.siteId))
    .innerJoin(customers, eq(customers.id, sites.customerId))
    .where(and(...conditions))
    .orderBy(asc(buildings.name), asc(buildings.id), asc(zones.name), asc(zones.id));
}

/** A uuid no row has, so that an empty id list filters everything out. */
const NONE = '00000000-0000-0000-0000-000000000000';
const ids = (zoneIds: string[]) => (zoneIds.length ? zoneIds : [NONE]);

export type DailyVolume = { zoneId: string; day: string; volumeMl: number };
export type HourlyVolume = { zoneId: string; hour: Date; volumeMl: number };

/** Each zone's volume per local day from `fromDay` (included) to `toDay` (excluded), flowboxes summed. */
export async function dailyVolumes(
  db: Db,
  zoneIds: string[],
  fromDay: string,
  toDay: string,
): Promise<DailyVolume[]> {
  const rows = await db
    .select({
      zoneId: consumptionDaily.zoneId,
      day: sql<string>`${consumptionDaily.day}::text`,
      volumeMl: sql<string>`sum(${consumptionDaily.volumeMl})::text`,
    })
    .from(consumptionDaily)
    .where(
      and(
        inArray(consumptionDaily.zoneId, ids(zoneIds)),
        gte(consumptionDaily.day, fromDay),
        lt(consumptionDaily.day, toDay),
      ),
    )
    .groupBy(consumptionDaily.zoneId, consumptionDaily.day);
  return rows.map((r) => ({ zoneId: r.zoneId, day: r.day, volumeMl: Number(r.volumeMl) }));
}

/**
 * Each zone's volume from `fromDay` to `toDay` summed per segment: the days from one of `starts`
 * to the next (`day` is the segment's first day). `starts` must include `fromDay`.
 */
export async function segmentVolumes(
  db: Db,
  zoneIds: string[],
  fromDay: string,
  toDay: string,
  starts: string[],
): Promise<DailyVolume[]> {
  const sorted = [...new Set(starts)].filter((d) => d >= fromDay && d < toDay).sort();
  const array = `{${sorted.join(',')}}`;
  const segment = sql<string>`((${array}::date[])[width_bucket(${consumptionDaily.day}, ${array}::date[])])::text`;
  const rows = await db
    .select({
      zoneId: consumptionDaily.zoneId,
      day: segment,
      volumeMl: sql<string>`sum(${consumptionDaily.volumeMl})::text`,
    })
    .from(consumptionDaily)
    .where(
      and(
        inArray(consumptionDaily.zoneId, ids(zoneIds)),
        gte(consumptionDaily.day, fromDay),
        lt(consumptionDaily.day, toDay),
      ),
    )
    // By position: the segment expression carries parameters, which GROUP BY would not match.
    .groupBy(consumptionDaily.zoneId, sql.raw('2'));
  return rows.map((r) => ({ zoneId: r.zoneId, day: r.day, volumeMl: Number(r.volumeMl) }));
}

/** Each zone's volume per UTC hour in [from, to), flowboxes summed. */
export async function hourlyVolumes(
  db: Db,
  zoneIds: string[],
  from: Date,
  to: Date,
): Promise<HourlyVolume[]> {
  const rows = await db
    .select({
      zoneId: consumptionHourly.zoneId,
      hour: consumptionHourly.hour,
      volumeMl: sql<string>`sum(${consumptionHourly.volumeMl})::text`,
    })
    .from(consumptionHourly)
    .where(
      and(
        inArray(consumptionHourly.zoneId, ids(zoneIds)),
        gte(consumptionHourly.hour, from),
        lt(consumptionHourly.hour, to),
      ),
    )
    .groupBy(consumptionHourly.zoneId, consumptionHourly.hour);
  return rows.map((r) => ({ zoneId: r.zoneId, hour: new Date(r.hour), volumeMl: Number(r.volumeMl) }));
}

/** One zone's hourly rows per flowbox in [from, to): the premium device details. */
export async function flowboxHours(db: Db, zoneId: string, from: Date, to: Date) {
  return db
    .select({
      flowboxId: consumptionHourly.flowboxId,
      hour: consumptionHourly.hour,
      volumeMl: consumptionHourly.volumeMl,
      flowS: consumptionHourly.flowS,
      temperatureMin: consumptionHourly.temperatureMin,
      temperatureMax: consumptionHourly.temperatureMax,
      temperatureSum: consumptionHourly.temperatureSum,
      temperatureCount: consumptionHourly.temperatureCount,
      humidityMin: consumptionHourly.humidityMin,
      humidityMax: consumptionHourly.humidityMax,
      humiditySum: consumptionHourly.humiditySum,
      humidityCount: consumptionHourly.humidityCount,
    })
    .from(consumptionHourly)
    .where(
      and(
        eq(consumptionHourly.zoneId, zoneId),
        gte(consumptionHourly.hour, from),
        lt(consumptionHourly.hour, to),
      ),
    )
    .orderBy(asc(consumptionHourly.hour));
}
export type FlowboxHour = Awaited<ReturnType<typeof flowboxHours>>[number];

/** Serial numbers of the flowboxes that still exist. */
export async function flowboxSerials(db: Db, flowboxIds: string[]): Promise<Map<string, string>> {
  if (flowboxIds.length === 0) return new Map();
  const rows = await db
    .select({ id: flowboxes.id, serial: flowboxes.serial })
    .from(flowboxes)
    .where(inArray(flowboxes.id, flowboxIds));
  return new Map(rows.map((r) => [r.id, r.serial]));
}

/** Subscriptions of the zones in force at some point of [fromDay, toDay). */
export async function subscriptionsOverlapping(db: Db, zoneIds: string[], fromDay: string, toDay: string) {
  return db
    .select({
      zoneId: zoneSubscriptions.zoneId,
      planId: zoneSubscriptions.planId,
      startDate: zoneSubscriptions.startDate,
      endDate: zoneSubscriptions.endDate,
      createdAt: zoneSubscriptions.createdAt,
    })
    .from(zoneSubscriptions)
    .where(
      and(
        inArray(zoneSubscriptions.zoneId, ids(zoneIds)),
        lt(zoneSubscriptions.startDate, toDay),
        sql`(${zoneSubscriptions.endDate} IS NULL OR ${zoneSubscriptions.endDate} > ${fromDay})`,
      ),
    )
    .orderBy(
      asc(zoneSubscriptions.zoneId),
      asc(zoneSubscriptions.startDate),
      asc(zoneSubscriptions.createdAt),
    );
}
export type SubscriptionSpan = Awaited<ReturnType<typeof subscriptionsOverlapping>>[number];

/** Paired flowboxes of the zones, connected or not (spec §4 connection state). */
export async function deviceCounts(db: Db, zoneIds: string[]): Promise<{ online: number; offline: number }> {
  const [row] = await db
    .select({
      online: sql<number>`count(*) FILTER (WHERE ${flowboxes.connected})::int`,
      offline: sql<number>`count(*) FILTER (WHERE NOT ${flowboxes.connected})::int`,
    })
    .from(flowboxes)
    .where(and(inArray(flowboxes.zoneId, ids(zoneIds)), isNotNull(flowboxes.pairedAt)));
  return { online: row?.online ?? 0, offline: row?.offline ?? 0 };
}
