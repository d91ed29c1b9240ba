import {
  addDays,
  daysBetween,
  localDate,
  type WaterBalance,
  type WaterBalanceQuery,
  type WaterBalanceSettings,
} from '@flowbox/shared';
import { requireSiteManage, requireSiteManagerRead, type Actor } from '../access/access.ts';
import type { ClearAlertInput, RaiseAlertInput } from '../alerts/index.ts';
import { requireBuildingRow } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { recordChange } from '../events/index.ts';
import type { BuildingPath } from '../http/params.ts';
import {
  balanceOf,
  dayOf,
  exceeded,
  HOUR_MS,
  judgeAtAfter,
  judgeNightBucket,
  latestJudgedNight,
  nightOf,
  type NightVerdict,
  type Span,
} from './balance.ts';
import {
  buildingHours,
  buildingMeters,
  buildingTimezone,
  claimDueBuildings,
  findSettings,
  openBalanceAlertZones,
  saveSettings,
  setJudgeAt,
  WATER_BALANCE_CAUSE,
  zoneOfBuilding,
  type DueBuilding,
} from './water-balance.repo.ts';

/** How the balance raises and resolves its alert: the alerts module's, given by app.ts. */
export type BalanceAlerts = {
  raise: (tx: Db, alert: RaiseAlertInput) => Promise<unknown>;
  clear: (tx: Db, alert: ClearAlertInput) => Promise<unknown>;
};

/** Buildings judged at most per pass of the job: each is a few rows of its night. */
export const JUDGE_BATCH = 100;

/**
 * A building's water balance (docs/automation.md "Building water balance"): read like the
 * building's consumption, set with `buildings.manage`, and judged night by night by the job.
 */
export class WaterBalanceService {
  constructor(
    private readonly ctx: Context,
    private readonly alerts: BalanceAlerts,
  ) {}

  async balance(actor: Actor, path: BuildingPath, query: WaterBalanceQuery): Promise<WaterBalance> {
    requireSiteManagerRead(actor, path.customerId, path.siteId);
    const { db } = this.ctx;
    const building = await requireBuildingRow(db, path);
    const settings = await findSettings(db, building.id);
    const timezone = building.timezone;
    const to = query.to ?? localDate(this.ctx.now(), timezone);
    const from = query.from ?? addDays(to, -6);
    const answer: WaterBalance = {
      building_id: building.id,
      timezone,
      settings,
      main_supply_zone_name: null,
      by: query.by,
      from,
      to,
      buckets: [],
      totals: {
        main_l: 0,
        zones_l: 0,
        unaccounted_l: 0,
        unaccounted_share: null,
        complete_hours: 0,
        incomplete_hours: 0,
      },
    };
    const mainZoneId = settings.main_supply_zone_id;
    if (mainZoneId === null) return answer;
    const dates = Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i));
    const spans: Span[] =
      query.by === 'night'
        ? dates.map((date) => nightOf(date, timezone))
        : dates.flatMap((date) =>
            dayOf(date, timezone).hours.map((hour) => ({
              date: localDate(hour, timezone),
              start: new Date(hour),
              end: new Date(hour + HOUR_MS),
              hours: [hour],
            })),
          );
    const [name, { buckets, totals }] = await Promise.all([
      zoneOfBuilding(db, building.id, mainZoneId),
      this.figures(db, building.id, mainZoneId, spans),
    ]);
    const unaccountedMl = totals.mainMl - totals.zonesMl;
    return {
      ...answer,
      main_supply_zone_name: name ?? null,
      buckets,
      totals: {
        main_l: totals.mainMl / 1000,
        zones_l: totals.zonesMl / 1000,
        unaccounted_l: unaccountedMl / 1000,
        unaccounted_share:
          totals.mainMl > 0 ? Math.round((unaccountedMl / totals.mainMl) * 10_000) / 10_000 : null,
        complete_hours: totals.completeHours,
        incomplete_hours: totals.incompleteHours,
      },
    };
  }

  /**
   * Sets the main supply and the thresholds. The building's last night becomes due at once; an
   * alert whose cause no longer holds as set (another main supply, the alert turned off) is resolved.
   */
  async updateSettings(
    actor: Actor,
    path: BuildingPath,
    input: WaterBalanceSettings,
  ): Promise<WaterBalanceSettings> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const { db } = this.ctx;
    const building = await requireBuildingRow(db, path);
    const mainZoneId = input.main_supply_zone_id;
    if (mainZoneId !== null && (await zoneOfBuilding(db, building.id, mainZoneId)) === undefined)
      throw notFound();
    const judged =
      mainZoneId !== null && (input.alert_liters_per_night !== null || input.alert_share_pct !== null);
    const now = this.ctx.now();
    await db.transaction(async (tx) => {
      const before = await findSettings(tx, building.id);
      await saveSettings(tx, building.id, input, judged ? now : null);
      const { zoneIds } = await buildingMeters(tx, building.id, mainZoneId ?? '');
      for (const zoneId of await openBalanceAlertZones(tx, zoneIds))
        if (!judged || zoneId !== mainZoneId)
          await this.alerts.clear(tx, { zoneId, cause: WATER_BALANCE_CAUSE, at: now });
      const changedFields = (Object.keys(input) as (keyof WaterBalanceSettings)[]).filter(
        (key) => input[key] !== before[key],
      );
      if (changedFields.length > 0)
        await recordChange(tx, now, actor, {
          action: 'updated',
          object: 'building',
          objectId: building.id,
          objectLabel: building.name,
          scope: { customerId: path.customerId, siteId: building.siteId, buildingId: building.id },
          changedFields,
        });
    });
    return input;
  }

  /**
   * The job's pass: each due building's newest ended night against its thresholds, one night a
   * building, at most JUDGE_BATCH buildings, claimed so that instances share them.
   */
  async judgeDueNights(limit = JUDGE_BATCH): Promise<number> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const due = await claimDueBuildings(tx, now, limit);
      for (const building of due) {
        const night = latestJudgedNight(now, building.timezone);
        await this.judge(tx, building, night, now);
        await setJudgeAt(tx, building.buildingId, judgeAtAfter(night, building.timezone));
      }
      return due.length;
    });
  }

  /** What a night says against the building's thresholds, without acting on it. */
  async judgeNight(buildingId: string, night: string): Promise<NightVerdict | null> {
    const { db } = this.ctx;
    const [settings, timezone] = await Promise.all([
      findSettings(db, buildingId),
      buildingTimezone(db, buildingId),
    ]);
    if (timezone === undefined || settings.main_supply_zone_id === null) return null;
    const bucket = await this.nightBucket(db, buildingId, settings.main_supply_zone_id, night, timezone);
    return judgeNightBucket(bucket, settings);
  }

  private async judge(tx: Db, building: DueBuilding, night: string, now: Date): Promise<void> {
    const { buildingId, mainSupplyZoneId, timezone } = building;
    const thresholds = {
      alert_liters_per_night: building.alertLitersPerNight,
      alert_share_pct: building.alertSharePct,
    };
    const bucket = await this.nightBucket(tx, buildingId, mainSupplyZoneId, night, timezone);
    const verdict = judgeNightBucket(bucket, thresholds);
    if (verdict === 'incomplete') return;
    const open = (await openBalanceAlertZones(tx, [mainSupplyZoneId])).length > 0;
    if (verdict === 'under') {
      if (open)
        await this.alerts.clear(tx, { zoneId: mainSupplyZoneId, cause: WATER_BALANCE_CAUSE, at: now });
      return;
    }
    // One alert an episode: nights past the threshold while it is open add nothing to it.
    if (open) return;
    await this.alerts.raise(tx, {
      category: 'leakage_detection',
      zoneId: mainSupplyZoneId,
      cause: WATER_BALANCE_CAUSE,
      details: {
        night,
        unaccounted_l: bucket.unaccounted_l,
        main_l: bucket.main_l,
        share_pct:
          bucket.unaccounted_share === null ? null : Math.round(bucket.unaccounted_share * 1000) / 10,
        ...exceeded(bucket, thresholds),
      },
      at: now,
    });
  }

  private async nightBucket(db: Db, buildingId: string, mainZoneId: string, night: string, timezone: string) {
    const { buckets } = await this.figures(db, buildingId, mainZoneId, [nightOf(night, timezone)]);
    return buckets[0]!;
  }

  private async figures(db: Db, buildingId: string, mainZoneId: string, spans: Span[]) {
    const { zoneIds, meters } = await buildingMeters(db, buildingId, mainZoneId);
    const from = spans[0]!.start;
    const to = spans.at(-1)!.end;
    const rows = await buildingHours(db, zoneIds, mainZoneId, from, to);
    return balanceOf(spans, meters, rows);
  }
}
