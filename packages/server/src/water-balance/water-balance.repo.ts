import type { WaterBalanceSettings } from '@flowbox/shared';
import { and, asc, eq, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { withFlowboxesOfZones } from '../db/scope.ts';
import { alerts, buildings, buildingWaterBalance, flowboxes, zones } from '../db/schema.ts';
import type { HourRow, Meter } from './balance.ts';

/** The alert cause of a building's unaccounted water, on its main supply zone (one zone a building). */
export const WATER_BALANCE_CAUSE = 'water_balance';

const NO_SETTINGS: WaterBalanceSettings = {
  main_supply_zone_id: null,
  alert_liters_per_night: null,
  alert_share_pct: null,
};

export async function findSettings(db: Db, buildingId: string): Promise<WaterBalanceSettings> {
  const [row] = await db
    .select()
    .from(buildingWaterBalance)
    .where(eq(buildingWaterBalance.buildingId, buildingId));
  if (!row) return NO_SETTINGS;
  return {
    main_supply_zone_id: row.mainSupplyZoneId,
    alert_liters_per_night: row.alertLitersPerNight,
    alert_share_pct: row.alertSharePct,
  };
}

export async function saveSettings(
  db: Db,
  buildingId: string,
  settings: WaterBalanceSettings,
  judgeAt: Date | null,
): Promise<void> {
  const values = {
    mainSupplyZoneId: settings.main_supply_zone_id,
    alertLitersPerNight: settings.alert_liters_per_night,
    alertSharePct: settings.alert_share_pct,
    judgeAt,
    updatedAt: new Date(),
  };
  await db
    .insert(buildingWaterBalance)
    .values({ buildingId, ...values })
    .onConflictDoUpdate({ target: buildingWaterBalance.buildingId, set: values });
}

export async function buildingTimezone(db: Db, buildingId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ timezone: buildings.timezone })
    .from(buildings)
    .where(eq(buildings.id, buildingId));
  return row?.timezone;
}

/** The zone's name if it is one of the building's zones. */
export async function zoneOfBuilding(
  db: Db,
  buildingId: string,
  zoneId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ name: zones.name })
    .from(zones)
    .where(and(eq(zones.id, zoneId), eq(zones.buildingId, buildingId)));
  return row?.name;
}

/** The building's zones and its paired flowboxes, each on its side of the balance. */
export async function buildingMeters(
  db: Db,
  buildingId: string,
  mainZoneId: string,
): Promise<{ zoneIds: string[]; meters: Meter[] }> {
  const rows = await withFlowboxesOfZones(
    db
      .select({
        zoneId: zones.id,
        flowboxId: flowboxes.id,
        serial: flowboxes.serial,
        pairedAt: flowboxes.pairedAt,
        state: flowboxes.pairingState,
      })
      .from(zones),
  )
    .where(eq(zones.buildingId, buildingId))
    .orderBy(asc(zones.id));
  const zoneIds = [...new Set(rows.map((r) => r.zoneId))];
  const meters: Meter[] = [];
  for (const r of rows)
    if (r.flowboxId !== null && r.serial !== null && r.state === 'ready')
      meters.push({
        flowboxId: r.flowboxId,
        serial: r.serial,
        main: r.zoneId === mainZoneId,
        pairedAt: r.pairedAt,
      });
  return { zoneIds, meters };
}

/**
 * The building's hours in [from, to) from the hourly rollup, summed in the database: each hour's
 * main supply volume, the other zones' volume, and the flowboxes that reported in it. The window
 * bounds what is read (the primary key's zone and hour), whatever the zones store outside it; one
 * row an hour comes back, not one a flowbox.
 */
export async function buildingHours(
  db: Db,
  zoneIds: string[],
  mainZoneId: string,
  from: Date,
  to: Date,
): Promise<HourRow[]> {
  if (zoneIds.length === 0) return [];
  const result = await db.execute(sql`
    SELECT extract(epoch FROM hour)::bigint::text AS hour,
      coalesce(sum(volume_ml) FILTER (WHERE zone_id = ${mainZoneId}::uuid), 0)::text AS main_ml,
      coalesce(sum(volume_ml) FILTER (WHERE zone_id <> ${mainZoneId}::uuid), 0)::text AS zones_ml,
      string_agg(flowbox_id::text, ',') AS flowboxes
    FROM consumption_hourly
    WHERE zone_id = ANY(${`{${zoneIds.join(',')}}`}::uuid[])
      AND hour >= ${from.toISOString()}::timestamptz AND hour < ${to.toISOString()}::timestamptz
    GROUP BY hour`);
  const rows = (
    result as unknown as { rows: { hour: string; main_ml: string; zones_ml: string; flowboxes: string }[] }
  ).rows;
  return rows.map((r) => ({
    hour: Number(r.hour) * 1000,
    mainMl: Number(r.main_ml),
    zonesMl: Number(r.zones_ml),
    flowboxIds: r.flowboxes.split(','),
  }));
}

export type DueBuilding = {
  buildingId: string;
  timezone: string;
  mainSupplyZoneId: string;
  alertLitersPerNight: number | null;
  alertSharePct: number | null;
};

/**
 * Buildings whose next night is due, with a main supply and a threshold, claimed for this
 * transaction (another instance's pass skips them): at most `limit` a pass.
 */
export async function claimDueBuildings(db: Db, now: Date, limit: number): Promise<DueBuilding[]> {
  const rows = await db
    .select({
      buildingId: buildingWaterBalance.buildingId,
      timezone: buildings.timezone,
      mainSupplyZoneId: buildingWaterBalance.mainSupplyZoneId,
      alertLitersPerNight: buildingWaterBalance.alertLitersPerNight,
      alertSharePct: buildingWaterBalance.alertSharePct,
    })
    .from(buildingWaterBalance)
    .innerJoin(buildings, eq(buildings.id, buildingWaterBalance.buildingId))
    .where(
      and(
        isNotNull(buildingWaterBalance.mainSupplyZoneId),
        lte(buildingWaterBalance.judgeAt, now),
        or(
          isNotNull(buildingWaterBalance.alertLitersPerNight),
          isNotNull(buildingWaterBalance.alertSharePct),
        ),
      ),
    )
    .orderBy(asc(buildingWaterBalance.judgeAt))
    .limit(limit)
    .for('update', { of: buildingWaterBalance, skipLocked: true });
  return rows.map((r) => ({ ...r, mainSupplyZoneId: r.mainSupplyZoneId! }));
}

export async function setJudgeAt(db: Db, buildingId: string, judgeAt: Date | null): Promise<void> {
  await db
    .update(buildingWaterBalance)
    .set({ judgeAt })
    .where(eq(buildingWaterBalance.buildingId, buildingId));
}

/**
 * Which of the building's zones hold its balance alert not resolved (one, unless the main supply
 * moved): read by zone and cause, the index of the alerts not resolved.
 */
export async function openBalanceAlertZones(db: Db, zoneIds: string[]): Promise<string[]> {
  if (zoneIds.length === 0) return [];
  const rows = await db
    .select({ zoneId: alerts.zoneId })
    .from(alerts)
    .where(
      and(
        inArray(alerts.zoneId, zoneIds),
        eq(alerts.cause, WATER_BALANCE_CAUSE),
        ne(alerts.state, 'resolved'),
      ),
    );
  return rows.map((r) => r.zoneId);
}
