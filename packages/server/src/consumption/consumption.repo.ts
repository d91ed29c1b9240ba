import { normalizeDecimal, type Currency, type VolumeUnit, type Weekday } from '@flowbox/shared';
import { and, asc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { VersionWithRanges } from '../billing/index.ts';
import type { Db } from '../db/client.ts';
import { joinUp } from '../db/scope.ts';
import {
  buildings,
  buildingWaterBalance,
  consumptionDaily,
  customers,
  consumptionHourly,
  flowboxes,
  pricingPlanRanges,
  pricingPlanVersions,
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
  /** An end user's zones (docs/permissions.md). */
  zoneIds?: string[];
};

export async function scopeZones(db: Db, filter: ZoneFilter): Promise<ScopeZone[]> {
  const conditions: SQL[] = [];
  if (filter.customerId) conditions.push(eq(sites.customerId, filter.customerId));
  if (filter.siteIds) conditions.push(inArray(sites.id, filter.siteIds.length ? filter.siteIds : [NONE]));
  if (filter.siteId) conditions.push(eq(sites.id, filter.siteId));
  if (filter.buildingId) conditions.push(eq(buildings.id, filter.buildingId));
  if (filter.zoneId) conditions.push(eq(zones.id, filter.zoneId));
  if (filter.zoneIds) conditions.push(inArray(zones.id, filter.zoneIds.length ? filter.zoneIds : [NONE]));
  // A building's main supply measures the water its zones use again (docs/automation.md "Building
  // water balance"): a scope of several zones leaves it out, so no litre counts twice. Its own
  // figures stay on its zone's page.
  if (!filter.zoneId && !filter.zoneIds)
    conditions.push(
      sql`NOT EXISTS (SELECT 1 FROM ${buildingWaterBalance} WHERE ${buildingWaterBalance.mainSupplyZoneId} = ${zones.id})`,
    );
  return joinUp(
    db
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
      .from(zones),
    'zone',
    'customer',
  )
    .where(and(...conditions))
    .orderBy(asc(buildings.name), asc(buildings.id), asc(zones.name), asc(zones.id));
}

/** A uuid no row has, so that an empty site list filters everything out. */
const NONE = '00000000-0000-0000-0000-000000000000';

/** The zones as one array parameter (uuids, from the database): one bind whatever their number. */
const uuidArray = (zoneIds: string[]) => sql`${`{${zoneIds.join(',')}}`}::uuid[]`;

export type DailyVolume = { zoneId: string; day: string; volumeMl: number };
export type HourlyVolume = { zoneId: string; hour: number; volumeMl: number };

/**
 * Each zone's volume from `fromDay` to `toDay` summed per segment: the days from one of `starts`
 * to the next (`day` is the segment's first day). `starts` must include `fromDay`. Grouped by the
 * segment's number, not its date: casting every row's segment to text was a fifth of the query.
 */
export async function segmentVolumes(
  db: Db,
  zoneIds: string[],
  fromDay: string,
  toDay: string,
  starts: string[],
): Promise<DailyVolume[]> {
  const sorted = [...new Set(starts)].filter((d) => d >= fromDay && d < toDay).sort();
  // One row per zone, its segments as text ("segment:millilitres,…"): a customer's year is tens
  // of thousands of segments, and reading them as rows cost more than the query.
  const result = await db.execute(sql`
    SELECT zone_id, string_agg(segment || ':' || volume_ml, ',') AS segments FROM (
      SELECT zone_id, width_bucket(day, ${`{${sorted.join(',')}}`}::date[]) AS segment,
        sum(volume_ml) AS volume_ml
      FROM ${consumptionDaily}
      WHERE zone_id = ANY(${uuidArray(zoneIds)}) AND day >= ${fromDay} AND day < ${toDay}
      GROUP BY 1, 2) AS s
    GROUP BY zone_id`);
  const volumes: DailyVolume[] = [];
  for (const row of (result as unknown as { rows: { zone_id: string; segments: string }[] }).rows)
    for (const item of row.segments.split(',')) {
      const colon = item.indexOf(':');
      volumes.push({
        zoneId: row.zone_id,
        day: sorted[Number(item.slice(0, colon)) - 1]!,
        volumeMl: Number(item.slice(colon + 1)),
      });
    }
  return volumes;
}

/** Each zone's volume per UTC hour in [from, to), flowboxes summed; `hour` in ms since 1970. */
export async function hourlyVolumes(
  db: Db,
  zoneIds: string[],
  from: Date,
  to: Date,
): Promise<HourlyVolume[]> {
  // Plain rows: a customer's two days are tens of thousands, and mapping each to a Date cost more
  // than the query.
  const result = await db.execute(sql`
    SELECT zone_id, extract(epoch FROM hour)::bigint::text AS hour, sum(volume_ml)::text AS volume_ml
    FROM ${consumptionHourly}
    WHERE zone_id = ANY(${uuidArray(zoneIds)}) AND hour >= ${from.toISOString()}::timestamptz
      AND hour < ${to.toISOString()}::timestamptz
    GROUP BY zone_id, hour`);
  const rows = (result as unknown as { rows: { zone_id: string; hour: string; volume_ml: string }[] }).rows;
  return rows.map((r) => ({ zoneId: r.zone_id, hour: Number(r.hour) * 1000, volumeMl: Number(r.volume_ml) }));
}

/** A stretch of one zone's consumption: from `from` to `to`, which may fall inside an hour. */
export type ZoneStretch = { zoneId: string; from: Date; to: Date };

/**
 * The millilitres of every stretch, summed: whole hours in full, the hour `to` falls in by its
 * elapsed share (flow inside an hour is not placed in time, as in the day window's "to date").
 * One statement whatever the number of stretches.
 */
export async function stretchesVolumeMl(db: Db, stretches: ZoneStretch[]): Promise<number> {
  if (stretches.length === 0) return 0;
  const result = await db.execute(sql`
    SELECT coalesce(sum(CASE WHEN h.hour + interval '1 hour' <= s.upto THEN h.volume_ml::float8
      ELSE h.volume_ml * extract(epoch FROM (s.upto - h.hour)) / 3600 END), 0)::text AS volume_ml
    FROM unnest(${uuidArray(stretches.map((s) => s.zoneId))},
      ${`{${stretches.map((s) => s.from.toISOString()).join(',')}}`}::timestamptz[],
      ${`{${stretches.map((s) => s.to.toISOString()).join(',')}}`}::timestamptz[]) AS s(zone_id, since, upto)
    JOIN ${consumptionHourly} AS h ON h.zone_id = s.zone_id AND h.hour >= s.since AND h.hour < s.upto`);
  const [row] = (result as unknown as { rows: { volume_ml: string }[] }).rows;
  return Number(row?.volume_ml ?? 0);
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

/** A zone's subscription: which plan, from when, until when (none: still running). */
export type SubscriptionSpan = { zoneId: string; planId: string; startDate: string; endDate: string | null };

/**
 * What prices the zones' consumption over [fromDay, toDay), in one round trip: their
 * subscriptions in force at some point of it (by zone, oldest first) and every version of those
 * subscriptions' plans with its ranges (newest first, as `versionsOf` answers them).
 */
export async function pricingOf(db: Db, zoneIds: string[], fromDay: string, toDay: string) {
  const result = await db.execute(sql`
    WITH subscriptions AS (
      SELECT zone_id, plan_id, start_date, end_date, created_at FROM ${zoneSubscriptions}
      WHERE zone_id = ANY(${uuidArray(zoneIds)}) AND start_date < ${toDay}
        AND (end_date IS NULL OR end_date > ${fromDay})
    )
    SELECT
      (SELECT json_agg(json_build_object('zoneId', zone_id, 'planId', plan_id,
          'startDate', start_date::text, 'endDate', end_date::text)
        ORDER BY zone_id, start_date, created_at) FROM subscriptions) AS subscriptions,
      (SELECT json_agg(json_build_object('id', v.id, 'planId', v.plan_id, 'version', v.version,
          'fromDate', v.from_date::text, 'billingType', v.billing_type,
          'acquisitionType', v.acquisition_type, 'currency', v.currency, 'volumeUnit', v.volume_unit,
          'archivedAt', v.archived_at, 'createdAt', v.created_at,
          'ranges', (SELECT json_agg(json_build_object('volume_start', r.volume_start::text,
              'volume_end', r.volume_end::text, 'price_per_unit', r.price_per_unit::text)
            ORDER BY r.position) FROM ${pricingPlanRanges} r WHERE r.version_id = v.id))
        ORDER BY v.plan_id, v.version DESC)
        FROM ${pricingPlanVersions} v WHERE v.plan_id IN (SELECT plan_id FROM subscriptions)) AS versions`);
  const [row] = (result as unknown as { rows: { subscriptions: unknown; versions: unknown }[] }).rows;
  const parse = <T>(value: unknown): T[] =>
    value === null || value === undefined
      ? []
      : ((typeof value === 'string' ? JSON.parse(value) : value) as T[]);
  type VersionJson = Omit<VersionWithRanges, 'archivedAt' | 'createdAt'> & {
    archivedAt: string | null;
    createdAt: string;
  };
  const versions: VersionWithRanges[] = parse<VersionJson>(row?.versions).map((v) => ({
    ...v,
    archivedAt: v.archivedAt === null ? null : new Date(v.archivedAt),
    createdAt: new Date(v.createdAt),
    ranges: v.ranges.map((r) => ({
      volume_start: normalizeDecimal(r.volume_start),
      volume_end: r.volume_end === null ? null : normalizeDecimal(r.volume_end),
      price_per_unit: normalizeDecimal(r.price_per_unit),
    })),
  }));
  return { subscriptions: parse<SubscriptionSpan>(row?.subscriptions), versions };
}

/**
 * Flowboxes of the zones, connected or not (spec §4 connection state): every flowbox placed in
 * them, as the fleet list counts them (the dashboard's figures link to it), those whose pairing is
 * under way included.
 */
export async function deviceCounts(db: Db, zoneIds: string[]): Promise<{ online: number; offline: number }> {
  const [row] = await db
    .select({
      online: sql<number>`count(*) FILTER (WHERE ${flowboxes.connected})::int`,
      offline: sql<number>`count(*) FILTER (WHERE NOT ${flowboxes.connected})::int`,
    })
    .from(flowboxes)
    .where(sql`${flowboxes.zoneId} = ANY(${uuidArray(zoneIds)})`);
  return { online: row?.online ?? 0, offline: row?.offline ?? 0 };
}
