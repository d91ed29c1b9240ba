import { LITERS_PER_UNIT, type Currency, type ZonePriceTiers } from '@flowbox/shared';
import { termsComing, versionInForce } from '../billing/index.ts';
import type { Context } from '../context.ts';
import {
  hourlyVolumes,
  pricingOf,
  scopeZones,
  segmentVolumes,
  type DailyVolume,
  type ScopeZone,
} from './consumption.repo.ts';
import {
  Amounts,
  billingPeriods,
  costDays,
  type TierTally,
  type BillingPeriod,
  type CostsByKey,
  type VersionsByPlan,
} from './costs.ts';
import { bucketIndexer, hourDays, type ZoneFigures } from './figures.ts';
import { addDays, localDate, type WindowPlan } from './windows.ts';

/** What prices consumption over a range of days: plan versions and the zones' billing periods. */
type Pricing = { fromDay: string; toDay: string; versions: VersionsByPlan; periods: BillingPeriod[] };

/**
 * The pricing engine: what consumption costs, read from the zones' subscriptions and plan versions
 * and priced by `costDays` (docs/consumption.md "Cost"), for the consumption endpoints
 * (ConsumptionService) and the leaks' price of lost water.
 */
export class ConsumptionPricing {
  constructor(private readonly ctx: Context) {}

  /** The price of one more cubic metre in each zone now, in its plan's currency (tiersOf). */
  async pricePerM3Now(
    zoneIds: readonly string[],
  ): Promise<Map<string, { perM3: number; currency: Currency }>> {
    const prices = new Map<string, { perM3: number; currency: Currency }>();
    if (zoneIds.length === 0) return prices;
    for (const zone of await scopeZones(this.ctx.db, { zoneIds: [...zoneIds] })) {
      const tiers = await this.tiersOf(zone);
      const range = tiers?.ranges[tiers.current_range];
      if (!tiers || !range) continue;
      const perLitre = Number(range.price_per_unit) / Number(LITERS_PER_UNIT[tiers.volume_unit]);
      prices.set(zone.zoneId, { perM3: perLitre * 1000, currency: tiers.currency });
    }
    return prices;
  }

  /**
   * The tiers that bill a zone today: its subscription's plan version in force, the billing period
   * today falls in (spec §4 renewal) and its volume so far. null: not subscribed today.
   */
  async tiersOf(zone: ScopeZone): Promise<ZonePriceTiers> {
    const zones = [zone];
    const today = localDate(this.ctx.now(), zone.timezone);
    const tomorrow = addDays(today, 1);
    const pricing = await this.pricing(zones, today, tomorrow);
    const period = pricing.periods.find((p) => p.fromDay <= today && today < p.toDay);
    if (!period) return null;
    const version = versionInForce(pricing.versions.get(period.planId) ?? [], today);
    if (!version) return null;
    const segments = await segmentVolumes(this.ctx.db, [zone.zoneId], period.fromDay, tomorrow, [
      period.fromDay,
    ]);
    const ml = segments.reduce((sum, s) => sum + s.volumeMl, 0);
    const volume = ml / 1000 / Number(LITERS_PER_UNIT[version.volumeUnit]);
    let current = 0;
    version.ranges.forEach((range, index) => {
      if (Number(range.volume_start) <= volume) current = index;
    });
    return {
      plan_id: period.planId,
      period_from: period.fromDay,
      period_to: period.toDay,
      period_volume: volume.toFixed(3),
      volume_unit: version.volumeUnit,
      currency: version.currency,
      ranges: version.ranges,
      current_range: current,
      upcoming: termsComing(pricing.versions.get(period.planId) ?? [], today),
    };
  }

  /** What prices the zones' consumption over [fromDay, toDay): subscriptions and plan versions. */
  async pricing(zones: ScopeZone[], fromDay: string, toDay: string): Promise<Pricing> {
    const { subscriptions, versions } = await pricingOf(
      this.ctx.db,
      zones.map((z) => z.zoneId),
      fromDay,
      toDay,
    );
    const byPlan: VersionsByPlan = new Map();
    for (const version of versions) {
      const list = byPlan.get(version.planId);
      if (list) list.push(version);
      else byPlan.set(version.planId, [version]);
    }
    return {
      fromDay,
      toDay,
      versions: byPlan,
      periods: billingPeriods(subscriptions, byPlan, fromDay, toDay),
    };
  }

  /**
   * Daily volumes of the zones over [fromDay, toDay), summed into segments that start at `cuts`
   * and cross no billing period or price version, read from the start of the billing periods
   * overlapping it; and each zone's costs gathered by `keyOf`.
   */
  async dailyWithCosts(
    zones: ScopeZone[],
    fromDay: string,
    toDay: string,
    keyOf: (zoneId: string, day: string) => string | undefined,
    cuts: string[],
    prefetched?: Promise<Pricing>,
    tally?: TierTally,
  ): Promise<{ volumes: DailyVolume[]; costs: Map<string, CostsByKey>; costed: Set<Currency> }> {
    const { versions, periods } = await (prefetched ?? this.pricing(zones, fromDay, toDay));
    const readFrom = periods.reduce((day, p) => (p.fromDay < day ? p.fromDay : day), fromDay);
    // Days are summed in the database into segments that cross no bucket, billing period or price
    // version: what the cost needs, in far fewer rows than days.
    const segmentStarts = [
      ...cuts,
      readFrom,
      ...periods.flatMap((p) => [p.fromDay, p.toDay]),
      ...[...versions.values()].flat().map((v) => v.fromDate),
    ];
    const all = await segmentVolumes(
      this.ctx.db,
      zones.map((z) => z.zoneId),
      readFrom,
      toDay,
      segmentStarts,
    );
    const byZone = new Map<string, DailyVolume[]>();
    for (const row of all) {
      const list = byZone.get(row.zoneId);
      if (list) list.push(row);
      else byZone.set(row.zoneId, [row]);
    }
    const periodsByZone = new Map<string, BillingPeriod[]>();
    for (const p of periods) {
      const list = periodsByZone.get(p.zoneId);
      if (list) list.push(p);
      else periodsByZone.set(p.zoneId, [p]);
    }
    const costs = new Map<string, CostsByKey>();
    const costed = new Set<Currency>();
    for (const [zoneId, zonePeriods] of periodsByZone) {
      for (const p of zonePeriods) for (const v of versions.get(p.planId) ?? []) costed.add(v.currency);
      costs.set(
        zoneId,
        costDays(
          byZone.get(zoneId) ?? [],
          zonePeriods,
          versions,
          (day) => keyOf(zoneId, day),
          undefined,
          tally,
        ),
      );
    }
    return { volumes: all.filter((r) => r.day >= fromDay), costs, costed };
  }

  /**
   * Each zone's volume and cost per bucket of a window and of the period before it; a day-based
   * plan also adds to `tally` what each tier billed over its buckets (reports).
   */
  async figures(zones: ScopeZone[], plan: WindowPlan, tally?: TierTally): Promise<ZoneFigures[]> {
    const all = [...plan.previous, ...plan.buckets];
    const count = plan.buckets.length;
    const index = bucketIndexer(all);
    const perZone = new Map(
      zones.map((zone) => [
        zone.zoneId,
        {
          zone,
          volumes: all.map(() => 0),
          costs: all.map((): Amounts | undefined => undefined),
          costed: new Set<Currency>(),
        },
      ]),
    );
    const costsAt = (target: { costs: (Amounts | undefined)[] }, i: number) =>
      (target.costs[i] ??= new Amounts());
    if (plan.kind === 'day') {
      const { volumes, costs, costed } = await this.dailyWithCosts(
        zones,
        all[0]!.fromDay,
        all.at(-1)!.toDay,
        (_, day) => index.ofDay(day)?.toString(),
        all.map((b) => b.fromDay),
        undefined,
        tally,
      );
      for (const row of volumes) {
        const i = index.ofDay(row.day);
        if (i !== undefined) perZone.get(row.zoneId)!.volumes[i]! += row.volumeMl;
      }
      for (const [zoneId, byKey] of costs) {
        const target = perZone.get(zoneId)!;
        for (const [key, amounts] of byKey) target.costs[Number(key)] = amounts;
        costed.forEach((c) => target.costed.add(c));
      }
    } else {
      const fromDay = addDays(localDate(all[0]!.start, 'UTC'), -1);
      const toDay = addDays(localDate(all.at(-1)!.end, 'UTC'), 2);
      // The hours and what prices them are read at once; the days' volumes need the periods.
      const pricing = this.pricing(zones, fromDay, toDay);
      const [hours] = await Promise.all([
        hourlyVolumes(
          this.ctx.db,
          zones.map((z) => z.zoneId),
          all[0]!.start,
          all.at(-1)!.end,
        ),
        pricing,
      ]);
      // Every zone has the same hours: their local days are worked out once per time zone.
      const daysByTimezone = new Map<string, string[][]>();
      const daysOf = (timezone: string) => {
        let days = daysByTimezone.get(timezone);
        if (!days) daysByTimezone.set(timezone, (days = all.map((b) => hourDays(b.start, timezone))));
        return days;
      };
      const touched = new Map<string, Set<string>>();
      for (const zone of zones) touched.set(zone.zoneId, new Set(daysOf(zone.timezone).flat()));
      // One segment a day over the window; the billing period's days before it summed as one.
      const days: string[] = [];
      for (let day = fromDay; day < toDay; day = addDays(day, 1)) days.push(day);
      const { volumes, costs, costed } = await this.dailyWithCosts(
        zones,
        fromDay,
        toDay,
        (zoneId, day) => (touched.get(zoneId)?.has(day) ? day : undefined),
        days,
        pricing,
      );
      const dayMl = new Map<string, Map<string, number>>();
      for (const row of volumes) {
        const ofZone = dayMl.get(row.zoneId) ?? new Map<string, number>();
        dayMl.set(row.zoneId, ofZone.set(row.day, row.volumeMl));
      }
      for (const row of hours) {
        const i = index.ofInstant(row.hour);
        if (i === undefined) continue;
        const target = perZone.get(row.zoneId)!;
        target.volumes[i]! += row.volumeMl;
        const zoneDays = dayMl.get(row.zoneId);
        const zoneCosts = costs.get(row.zoneId);
        if (row.volumeMl === 0 || !zoneDays || !zoneCosts) continue;
        // An hour is priced at the average price of its local day (docs/consumption.md "Cost"):
        // the day holding most of the hour, or the other one when that day has no volume (then
        // all of the hour's readings are in the other).
        const day = daysOf(target.zone.timezone)[i]!.find((d) => (zoneDays.get(d) ?? 0) > 0);
        const dayCosts = day === undefined ? undefined : zoneCosts.get(day);
        if (!dayCosts || day === undefined) continue;
        costsAt(target, i).addAll(dayCosts, { n: BigInt(row.volumeMl), d: BigInt(zoneDays.get(day)!) });
      }
      for (const zoneId of costs.keys()) costed.forEach((c) => perZone.get(zoneId)!.costed.add(c));
    }
    return [...perZone.values()].map((z) => ({
      zone: z.zone,
      previous: z.volumes.slice(0, all.length - count),
      current: z.volumes.slice(all.length - count),
      previousCosts: z.costs.slice(0, all.length - count),
      currentCosts: z.costs.slice(all.length - count),
      costed: z.costed,
    }));
  }
}
