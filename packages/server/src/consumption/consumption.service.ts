import {
  addExact,
  divideExact,
  exactInteger,
  formatAmount,
  formatExact,
  compareExact,
  EXACT_ZERO,
  type ConsumptionDetails,
  type ConsumptionExportQuery,
  type Language,
  type ConsumptionQuery,
  type ConsumptionSeries,
  type ConsumptionWindow,
  type Currency,
  type DashboardToday,
  type ZonePriceTiers,
  type Exact,
  type VolumeUnit,
  type ZonesComparison,
} from '@flowbox/shared';
import {
  isProvider,
  requireCustomerRead,
  requirePermission,
  readsConsumption,
  requireConsumptionRead,
  requireSiteManagerRead,
  siteFilterFor,
  type Actor,
  placeScopeOf,
} from '../access/access.ts';
import { requirePremium } from '../billing/index.ts';
import { requireBuildingRow, findSiteRow } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import { forbidden, notFound } from '../errors.ts';
import { csvLine } from '../http/csv.ts';
import type { BuildingPath, SitePath, ZonePath } from '../http/params.ts';
import {
  deviceCounts,
  flowboxHours,
  flowboxSerials,
  scopeZones,
  stretchesVolumeMl,
  type ScopeZone,
  type ZoneFilter,
} from './consumption.repo.ts';
import { ConsumptionPricing } from './consumption-pricing.ts';
import { TierTally, type Amounts } from './costs.ts';
import { CSV_COLUMNS, localDateTime } from './csv.ts';
import {
  addStat,
  bucketIndexer,
  compare,
  elapsedMs,
  ml,
  newStat,
  settingsOf,
  statOf,
  sumCosts,
  sumExact,
  sumMl,
  toDate,
  volumeIn,
  type ScopeSettings,
} from './figures.ts';
import { addDays, dailyPlan, localDate, planWindow, startOfLocalDay, type Bucket } from './windows.ts';

/**
 * A customer's or a site's consumption over whole local days, per zone and in total (reports/,
 * docs/reports.md "Figures"): volumes in `volume_unit`, costs in each zone's currency and the
 * total's in `currency`, null when nothing is billed in it.
 */
export type PeriodFigures = {
  timezone: string;
  volumeUnit: VolumeUnit;
  currency: Currency;
  zones: { zone: ScopeZone; volume: string; cost: string | null }[];
  total: { volume: string; cost: string | null; otherCurrencies: { currency: Currency; cost: string }[] };
  /**
   * What each price tier billed over the days, per plan version (its price from `priceFrom`): the
   * volume in the version's unit and the cost in its currency; a version's tiers add up to its cost.
   */
  tiers: {
    priceFrom: string;
    start: string;
    end: string | null;
    pricePerUnit: string;
    volume: string;
    volumeUnit: VolumeUnit;
    cost: string;
    currency: Currency;
  }[];
};

export type ScopePath =
  | { scope: 'zone'; path: ZonePath }
  | { scope: 'building'; path: BuildingPath }
  | { scope: 'site'; path: SitePath }
  | { scope: 'customer'; path: { customerId: string } };

/** Consumption graphs, comparisons, details, export and today's figures (issue #6, spec §5, §6, §9). */
export class ConsumptionService {
  private readonly pricing: ConsumptionPricing;

  constructor(
    private readonly ctx: Context,
    /** The open alerts the actor may see (the alerts module's count, docs/alerts.md). */
    private readonly openAlerts: (actor: Actor) => Promise<number>,
    /** Leak analytics summed over zones (the leaks module, docs/automation.md "Leak analytics"). */
    private readonly leaks: (zoneIds: readonly string[]) => Promise<DashboardToday['leaks']>,
  ) {
    this.pricing = new ConsumptionPricing(ctx);
  }

  /** The zones of a scope after the access checks (same 403/404 as reading the scope itself). */
  async zonesOf(actor: Actor, target: ScopePath): Promise<{ zones: ScopeZone[]; fallback?: ScopeSettings }> {
    const { db } = this.ctx;
    if (target.scope === 'customer') {
      requireCustomerRead(actor, target.path.customerId);
      await requireCustomerRow(db, target.path.customerId);
      const sites = siteFilterFor(actor);
      const filter: ZoneFilter = { customerId: target.path.customerId };
      if (sites !== 'all') filter.siteIds = sites;
      // The scope's check and its zones at once (the zones query filters by the same ids).
      const [, zones] = await Promise.all([
        requireCustomerRow(db, target.path.customerId),
        scopeZones(db, filter),
      ]);
      return { zones };
    }
    const { customerId, siteId } = target.path;
    // A zone's figures are its end users' too; a site's or a building's are managers' only.
    if (target.scope === 'zone') requireConsumptionRead(actor, target.path);
    else requireSiteManagerRead(actor, customerId, siteId);
    if (target.scope === 'site') {
      const [site, zones] = await Promise.all([
        findSiteRow(db, customerId, siteId),
        scopeZones(db, { customerId, siteId }),
      ]);
      if (!site) throw notFound();
      return { zones };
    }
    if (target.scope === 'zone') {
      // One query checks the whole path (customer > site > building > zone) and reads the settings.
      const { buildingId, zoneId } = target.path;
      const zones = await scopeZones(db, { customerId, siteId, buildingId, zoneId });
      if (zones.length === 0) throw notFound();
      return { zones };
    }
    const [building, zones] = await Promise.all([
      requireBuildingRow(db, target.path),
      scopeZones(db, { customerId, siteId, buildingId: target.path.buildingId }),
    ]);
    const fallback: ScopeSettings = {
      timezone: building.timezone,
      firstDay: building.firstDayOfWeek,
      unit: building.volumeUnit,
      currency: building.currency,
    };
    return { zones, fallback };
  }

  async series(actor: Actor, target: ScopePath, query: ConsumptionQuery): Promise<ConsumptionSeries> {
    const { zones, fallback } = await this.zonesOf(actor, target);
    const settings = settingsOf(zones, fallback);
    const plan = planWindow(query.window, this.ctx.now(), settings.timezone, settings.firstDay);
    const figures = await this.pricing.figures(zones, plan);
    const currentMl = plan.buckets.map((_, i) => sumMl(figures.map((f) => f.current[i]!)));
    const previousMl = plan.previous.map((_, i) => sumMl(figures.map((f) => f.previous[i]!)));
    const costed = figures.some((f) => f.costed.has(settings.currency));
    const bucketsOf = (buckets: Bucket[], volumes: Exact[], costs: (Amounts | undefined)[][]) =>
      buckets.map((bucket, i) => ({
        start: bucket.start.toISOString(),
        end: bucket.end.toISOString(),
        date: bucket.date,
        volume: volumeIn(volumes[i]!, settings.unit),
        cost: costed ? sumCosts(costs.map((c) => c[i])).format(settings.currency) : null,
      }));
    const totalOf = (volumes: Exact[], costs: (Amounts | undefined)[]) => {
      const byCurrency = sumCosts(costs);
      return {
        volume: volumeIn(sumExact(volumes), settings.unit),
        cost: costed ? byCurrency.format(settings.currency) : null,
        other_currencies: byCurrency
          .currencies()
          .filter((currency) => currency !== settings.currency)
          .map((currency) => ({ currency, cost: byCurrency.format(currency) })),
      };
    };
    const currentTotal = sumExact(currentMl);
    const previousToDate = toDate(previousMl, plan);
    const withPrevious = query.compare === 'previous';
    return {
      scope: target.scope,
      scope_id: scopeIdOf(target),
      window: query.window,
      from: plan.buckets[0]!.start.toISOString(),
      to: plan.now.toISOString(),
      timezone: settings.timezone,
      first_day_of_week: settings.firstDay,
      volume_unit: settings.unit,
      currency: settings.currency,
      buckets: bucketsOf(
        plan.buckets,
        currentMl,
        figures.map((f) => f.currentCosts),
      ),
      total: totalOf(
        currentMl,
        figures.flatMap((f) => f.currentCosts),
      ),
      previous: withPrevious
        ? {
            from: plan.previous[0]!.start.toISOString(),
            to: new Date(plan.previous.at(-1)!.start.getTime() + elapsedMs(plan)).toISOString(),
            buckets: bucketsOf(
              plan.previous,
              previousMl,
              figures.map((f) => f.previousCosts),
            ),
            total: totalOf(
              previousMl,
              figures.flatMap((f) => f.previousCosts),
            ),
            total_to_date: volumeIn(previousToDate, settings.unit),
          }
        : null,
      comparison: withPrevious ? compare(currentTotal, previousToDate) : null,
    };
  }

  /** Zones of a building or site side by side, largest volume first. */
  async zones(actor: Actor, target: ScopePath, window: ConsumptionWindow): Promise<ZonesComparison> {
    const { zones, fallback } = await this.zonesOf(actor, target);
    const settings = settingsOf(zones, fallback);
    const plan = planWindow(window, this.ctx.now(), settings.timezone, settings.firstDay);
    const figures = await this.pricing.figures(zones, plan);
    const lines = figures.map((f) => {
      const current = sumMl(f.current);
      const previous = toDate(f.previous.map(ml), plan);
      const cost = sumCosts(f.currentCosts).format(f.zone.currency);
      return {
        zone_id: f.zone.zoneId,
        zone_name: f.zone.zoneName,
        building_id: f.zone.buildingId,
        building_name: f.zone.buildingName,
        volume: volumeIn(current, settings.unit),
        cost: f.costed.has(f.zone.currency) ? cost : null,
        currency: f.zone.currency,
        previous_volume: volumeIn(previous, settings.unit),
        comparison: compare(current, previous),
        sortKey: current,
      };
    });
    lines.sort((a, b) => compareExact(b.sortKey, a.sortKey) || a.zone_name.localeCompare(b.zone_name));
    return {
      window,
      from: plan.buckets[0]!.start.toISOString(),
      to: plan.now.toISOString(),
      timezone: settings.timezone,
      volume_unit: settings.unit,
      zones: lines.map(({ sortKey: _, ...line }) => line),
    };
  }

  /**
   * The tiers that bill the zone today (issue 15): its subscription's plan version in force, the
   * billing period today falls in (spec §4 renewal) and its volume so far, priced as `costDays`
   * prices it. null: not subscribed today. The building's own price per unit bills nothing.
   */
  async priceTiers(actor: Actor, path: ZonePath): Promise<ZonePriceTiers> {
    const { zones } = await this.zonesOf(actor, { scope: 'zone', path });
    return this.pricing.tiersOf(zones[0]!);
  }

  /**
   * The price of one more cubic metre in a zone now, in its plan's currency: the price of the tier
   * its billing period has reached (priceTiers). null: not subscribed today. Leak analytics price
   * the water a leak loses with it (docs/automation.md "Leak analytics").
   */
  async pricePerM3Now(
    zoneIds: readonly string[],
  ): Promise<Map<string, { perM3: number; currency: Currency }>> {
    return this.pricing.pricePerM3Now(zoneIds);
  }

  /** spec §6: a premium zone's device-level figures; refused for basic zones. */
  async details(actor: Actor, path: ZonePath, window: ConsumptionWindow): Promise<ConsumptionDetails> {
    const { zones, fallback } = await this.zonesOf(actor, { scope: 'zone', path });
    await requirePremium(this.ctx.db, path.zoneId);
    const settings = settingsOf(zones, fallback);
    const plan = planWindow(window, this.ctx.now(), settings.timezone, settings.firstDay);
    const rows = await flowboxHours(
      this.ctx.db,
      path.zoneId,
      plan.buckets[0]!.start,
      plan.buckets.at(-1)!.end,
    );
    const index = bucketIndexer(plan.buckets);
    const serials = await flowboxSerials(this.ctx.db, [...new Set(rows.map((r) => r.flowboxId))]);
    const perFlowbox = new Map<string, { volume: number[]; flowS: number[] }>();
    const climate = plan.buckets.map(() => ({ t: newStat(), h: newStat() }));
    for (const row of rows) {
      const i = index.ofInstant(row.hour);
      if (i === undefined) continue;
      let fb = perFlowbox.get(row.flowboxId);
      if (!fb)
        perFlowbox.set(
          row.flowboxId,
          (fb = { volume: plan.buckets.map(() => 0), flowS: plan.buckets.map(() => 0) }),
        );
      fb.volume[i]! += row.volumeMl;
      fb.flowS[i]! += row.flowS;
      addStat(
        climate[i]!.t,
        row.temperatureMin,
        row.temperatureMax,
        row.temperatureSum,
        row.temperatureCount,
      );
      addStat(climate[i]!.h, row.humidityMin, row.humidityMax, row.humiditySum, row.humidityCount);
    }
    const when = (b: Bucket) => ({ start: b.start.toISOString(), end: b.end.toISOString(), date: b.date });
    return {
      window,
      from: plan.buckets[0]!.start.toISOString(),
      to: plan.now.toISOString(),
      timezone: settings.timezone,
      volume_unit: settings.unit,
      flowboxes: [...perFlowbox].map(([flowboxId, fb]) => ({
        flowbox_id: flowboxId,
        serial_number: serials.get(flowboxId) ?? null,
        buckets: plan.buckets.map((b, i) => ({
          ...when(b),
          volume: volumeIn(ml(fb.volume[i]!), settings.unit),
          flow_s: fb.flowS[i]!,
        })),
      })),
      climate: plan.buckets.map((b, i) => ({
        ...when(b),
        temperature: statOf(climate[i]!.t),
        humidity: statOf(climate[i]!.h),
      })),
    };
  }

  /**
   * CSV export of a scope (spec §2 consumption export): one line per zone and bucket of a window,
   * or per zone and local day from `from` to `to`; column names in the reader's language.
   */
  async exportCsv(
    actor: Actor,
    target: ScopePath,
    query: ConsumptionExportQuery,
    language: Language,
  ): Promise<{ fileName: string; body: string }> {
    requirePermission(actor, 'consumption.export');
    const { zones, fallback } = await this.zonesOf(actor, target);
    const settings = settingsOf(zones, fallback);
    const now = this.ctx.now();
    const plan =
      query.from && query.to
        ? dailyPlan(query.from, query.to, settings.timezone, now)
        : planWindow(query.window ?? 'day', now, settings.timezone, settings.firstDay);
    const figures = await this.pricing.figures(zones, plan);
    const hourly = plan.kind === 'hour';
    const when = (at: Date) =>
      hourly ? localDateTime(at, settings.timezone) : localDate(at, settings.timezone);
    let body = `\uFEFF${csvLine(CSV_COLUMNS[language])}`;
    for (const f of figures) {
      const costed = f.costed.has(f.zone.currency);
      plan.buckets.forEach((bucket, i) => {
        const cost = f.currentCosts[i]?.format(f.zone.currency) ?? formatAmount(EXACT_ZERO, f.zone.currency);
        body += csvLine([
          hourly ? when(bucket.start) : bucket.fromDay,
          hourly ? when(bucket.end) : addDays(bucket.toDay, -1),
          f.zone.customerName,
          f.zone.siteName,
          f.zone.buildingName,
          f.zone.zoneName,
          volumeIn(ml(f.current[i]!), settings.unit),
          settings.unit,
          costed ? cost : '',
          costed ? f.zone.currency : '',
        ]);
      });
    }
    const period = query.from && query.to ? `${query.from}_${query.to}` : (query.window ?? 'day');
    return { fileName: `consumption-${target.scope}-${period}.csv`, body };
  }

  /**
   * The scope's time zone (the one most of its zones' buildings use, as its graphs and exports
   * are drawn in): where a report's weeks and months start.
   */
  async timezoneOf(scope: { customerId: string; siteId: string | null }): Promise<string> {
    return settingsOf(await scopeZones(this.ctx.db, zoneFilterOf(scope))).timezone;
  }

  /**
   * A customer's or a site's figures over the local days `fromDay` to `lastDay` (both included),
   * for reports, which check access themselves: the zones and days of the CSV export of the same
   * days, priced by the same engine (`ConsumptionPricing.figures` on the same daily plan), so a
   * report says what the consumption calls say (docs/reports.md "Figures").
   */
  async periodFigures(
    scope: { customerId: string; siteId: string | null },
    fromDay: string,
    lastDay: string,
  ): Promise<PeriodFigures> {
    const zones = await scopeZones(this.ctx.db, zoneFilterOf(scope));
    const settings = settingsOf(zones);
    const plan = dailyPlan(fromDay, lastDay, settings.timezone, this.ctx.now());
    const tally = new TierTally();
    const figures = await this.pricing.figures(zones, plan, tally);
    const costed = figures.some((f) => f.costed.has(settings.currency));
    const total = sumCosts(figures.flatMap((f) => f.currentCosts));
    const tiers = tally
      .tiers()
      .sort(
        (a, b) =>
          a.version.planId.localeCompare(b.version.planId) ||
          a.version.fromDate.localeCompare(b.version.fromDate) ||
          a.index - b.index,
      )
      .map(({ version, index, volume, amount }) => {
        const range = version.ranges[index]!;
        return {
          priceFrom: version.fromDate,
          start: range.volume_start,
          end: range.volume_end,
          pricePerUnit: range.price_per_unit,
          volume: formatExact(volume, 3),
          volumeUnit: version.volumeUnit,
          cost: formatAmount(amount, version.currency),
          currency: version.currency,
        };
      });
    return {
      timezone: settings.timezone,
      volumeUnit: settings.unit,
      currency: settings.currency,
      zones: figures.map((f) => ({
        zone: f.zone,
        volume: volumeIn(sumMl(f.current), settings.unit),
        cost: f.costed.has(f.zone.currency) ? sumCosts(f.currentCosts).format(f.zone.currency) : null,
      })),
      total: {
        volume: volumeIn(sumMl(figures.flatMap((f) => f.current)), settings.unit),
        cost: costed ? total.format(settings.currency) : null,
        otherCurrencies: total
          .currencies()
          .filter((currency) => currency !== settings.currency)
          .map((currency) => ({ currency, cost: total.format(currency) })),
      },
      tiers,
    };
  }

  /**
   * Today's figures over every zone the actor may see (dashboard `/`): each building's own local
   * day so far, against the average of the same weekday of the 4 weeks before up to the same local
   * time (and that average's whole day, for reference).
   */
  async today(actor: Actor): Promise<DashboardToday> {
    const { db } = this.ctx;
    // These are consumption and cost figures, which a plumber never reads (docs/permissions.md):
    // refused, as its other consumption calls are, rather than answered with zeros (issue 30).
    if (!readsConsumption(actor)) throw forbidden();
    const filter: ZoneFilter = placeScopeOf(actor);
    const zones = actor.customerId === null && !isProvider(actor) ? [] : await scopeZones(db, filter);
    const settings = settingsOf(zones);
    const now = this.ctx.now();
    const todayOf = new Map(zones.map((z) => [z.zoneId, localDate(now, z.timezone)]));
    const days = [...todayOf.values()].sort();
    const fromDay = addDays(days[0] ?? localDate(now, 'UTC'), -28);
    const toDay = addDays(days.at(-1) ?? localDate(now, 'UTC'), 1);
    // Segments of one day for today and the 4 same weekdays before; the rest summed in between.
    const cuts = [...new Set(days)].flatMap((day) =>
      [0, 7, 14, 21, 28].flatMap((back) => [addDays(day, -back), addDays(day, 1 - back)]),
    );
    const { volumes, costs, costed } = await this.pricing.dailyWithCosts(
      zones,
      fromDay,
      toDay,
      (zoneId, day) => (todayOf.get(zoneId) === day ? 'today' : undefined),
      cuts,
    );
    let today = EXACT_ZERO;
    let sameWeekdays = EXACT_ZERO;
    const perZone = new Map<string, number>();
    for (const row of volumes) {
      const zoneToday = todayOf.get(row.zoneId)!;
      if (row.day === zoneToday) {
        today = addExact(today, ml(row.volumeMl));
        perZone.set(row.zoneId, row.volumeMl);
      } else if ([7, 14, 21, 28].some((back) => addDays(zoneToday, -back) === row.day)) {
        sameWeekdays = addExact(sameWeekdays, ml(row.volumeMl));
      }
    }
    const average = divideExact(sameWeekdays, exactInteger(4));
    // What today so far is compared with: the same 4 weekdays, each up to the same local time (a
    // whole day's average would make every morning look far below usual).
    const stretches = zones.flatMap((z) => {
      const day = todayOf.get(z.zoneId)!;
      const elapsed = now.getTime() - startOfLocalDay(day, z.timezone).getTime();
      return [7, 14, 21, 28].map((back) => {
        const from = startOfLocalDay(addDays(day, -back), z.timezone);
        return { zoneId: z.zoneId, from, to: new Date(from.getTime() + elapsed) };
      });
    });
    const usualToDate = divideExact(ml(Math.round(await stretchesVolumeMl(db, stretches))), exactInteger(4));
    const todayCosts = sumCosts([...costs.values()].map((c) => c.get('today')));
    const byId = new Map(zones.map((z) => [z.zoneId, z]));
    const top = [...perZone]
      .filter(([, volume]) => volume > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([zoneId, volume]) => {
        const z = byId.get(zoneId)!;
        return {
          zone_id: z.zoneId,
          zone_name: z.zoneName,
          building_id: z.buildingId,
          building_name: z.buildingName,
          site_id: z.siteId,
          customer_id: z.customerId,
          volume: volumeIn(ml(volume), settings.unit),
        };
      });
    return {
      volume_unit: settings.unit,
      currency: settings.currency,
      volume_today: volumeIn(today, settings.unit),
      same_weekday_average: volumeIn(average, settings.unit),
      usual_to_date: volumeIn(usualToDate, settings.unit),
      comparison: compare(today, usualToDate),
      leaks: await this.leaks(zones.map((z) => z.zoneId)),
      cost_today: costed.has(settings.currency) ? todayCosts.format(settings.currency) : null,
      other_currencies: todayCosts
        .currencies()
        .filter((currency) => currency !== settings.currency)
        .map((currency) => ({ currency, cost: todayCosts.format(currency) })),
      devices: await deviceCounts(
        db,
        zones.map((z) => z.zoneId),
      ),
      open_alerts: await this.openAlerts(actor),
      top_zones: top,
    };
  }
}

function zoneFilterOf(scope: { customerId: string; siteId: string | null }): ZoneFilter {
  const { customerId, siteId } = scope;
  return siteId === null ? { customerId } : { customerId, siteId };
}

function scopeIdOf(target: ScopePath): string {
  switch (target.scope) {
    case 'zone':
      return target.path.zoneId;
    case 'building':
      return target.path.buildingId;
    case 'site':
      return target.path.siteId;
    default:
      return target.path.customerId;
  }
}
