import {
  addBillingPeriods,
  addExact,
  divideExact,
  exactInteger,
  fromLiters,
  compareExact,
  minExact,
  multiplyExact,
  parseExact,
  subtractExact,
  EXACT_ZERO,
  type Currency,
  type Exact,
} from '@flowbox/shared';
import type { VersionWithRanges } from '../billing/plans.repo.ts';
import { versionInForce } from '../billing/zone-billing.ts';
import type { DailyVolume, SubscriptionSpan } from './consumption.repo.ts';

/*
 * Cost of consumption (DESIGN.md §4, docs/consumption.md "Cost"). Tiers apply to the volume of a
 * billing period, counted from its first day. A day's consumption occupies the slice of the tiers
 * between the period's volume before it and after it, priced by the plan version in force that day:
 *   cost(day) = price_v(cumulative after the day) − price_v(cumulative before the day).
 * Over a billing period with one version this telescopes to price_v(period volume), exactly the
 * price maths on the rolled-up volume; a new price from a date prices the later days' slices with
 * the new ranges, so consumption before it keeps its old price. Consecutive days with the same
 * version and the same destination are priced at once (two tier evaluations per run, not per day).
 */

export type BillingPeriod = { zoneId: string; planId: string; fromDay: string; toDay: string };

/** Plan versions by plan id, newest first (as `versionsOf` answers them). */
export type VersionsByPlan = Map<string, VersionWithRanges[]>;

/** A far-future day for subscriptions without an end. */
const OPEN_END = '9999-12-31';

/**
 * The billing periods of a zone's subscriptions that overlap [fromDay, toDay): periods of the
 * subscription's billing type (the version in force on its first day) counted from its start
 * (spec §4 renewal), the last one cut where the subscription ended.
 */
export function billingPeriods(
  subscriptions: SubscriptionSpan[],
  versions: VersionsByPlan,
  fromDay: string,
  toDay: string,
): BillingPeriod[] {
  const periods: BillingPeriod[] = [];
  for (const sub of subscriptions) {
    const planVersions = versions.get(sub.planId) ?? [];
    const billingType = versionInForce(planVersions, sub.startDate)?.billingType ?? 'monthly';
    const end = sub.endDate ?? OPEN_END;
    for (let k = 0; ; k += 1) {
      const periodFrom = addBillingPeriods(sub.startDate, billingType, k);
      if (periodFrom >= end || periodFrom >= toDay) break;
      const periodTo = minDay(addBillingPeriods(sub.startDate, billingType, k + 1), end);
      if (periodTo > fromDay)
        periods.push({ zoneId: sub.zoneId, planId: sub.planId, fromDay: periodFrom, toDay: periodTo });
    }
  }
  return periods;
}

const minDay = (a: string, b: string) => (a < b ? a : b);

const liters = (ml: number): Exact => divideExact(exactInteger(ml), exactInteger(1000));

type ParsedRange = { start: Exact; end: Exact | null; price: Exact };
const parsedRanges = new WeakMap<VersionWithRanges, ParsedRange[]>();

/**
 * The shared graduated price (`priceVolume`) of a cumulative volume, with the version's ranges
 * parsed once instead of at every call: a customer's year prices tens of thousands of runs.
 * Same exact operations, same result (tested against `priceVolume`).
 */
export function priceAt(version: VersionWithRanges, cumulativeMl: number): Exact {
  let ranges = parsedRanges.get(version);
  if (!ranges) {
    ranges = version.ranges.map((r) => ({
      start: parseExact(r.volume_start),
      end: r.volume_end === null ? null : parseExact(r.volume_end),
      price: parseExact(r.price_per_unit),
    }));
    parsedRanges.set(version, ranges);
  }
  const volume = fromLiters(liters(cumulativeMl), version.volumeUnit);
  let total = EXACT_ZERO;
  // Ranges are contiguous from 0 (spec §5): past the volume, no later range bills anything.
  for (const range of ranges) {
    if (compareExact(volume, range.start) <= 0) break;
    const end = range.end === null ? volume : minExact(volume, range.end);
    total = addExact(total, multiplyExact(subtractExact(end, range.start), range.price));
  }
  return total;
}

/** Amounts per destination key and currency. */
export type CostsByKey = Map<string, Map<Currency, Exact>>;

export function addCost(costs: CostsByKey, key: string, currency: Currency, amount: Exact): void {
  let byCurrency = costs.get(key);
  if (!byCurrency) costs.set(key, (byCurrency = new Map()));
  byCurrency.set(currency, addExact(byCurrency.get(currency) ?? EXACT_ZERO, amount));
}

/**
 * The cost of one zone's days, gathered by destination: `keyOf(day)` names where a day's cost
 * goes (a bucket), or undefined for days only counted towards the period's volume. `days` are the
 * zone's daily volumes, any order, covering its periods from their first day.
 */
export function costDays(
  days: DailyVolume[],
  periods: BillingPeriod[],
  versions: VersionsByPlan,
  keyOf: (day: string) => string | undefined,
  into: CostsByKey = new Map(),
): CostsByKey {
  const sorted = [...days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  for (const period of periods) {
    const planVersions = versions.get(period.planId) ?? [];
    let cumulative = 0;
    let run: { key: string; version: VersionWithRanges; fromMl: number; toMl: number } | undefined;
    // A run usually starts where the previous one ended: its price there is already known.
    let last: { version: VersionWithRanges; ml: number; price: Exact } | undefined;
    const flush = () => {
      if (!run || run.toMl === run.fromMl) return void (run = undefined);
      const { version, fromMl, toMl } = run;
      const before =
        last && last.version === version && last.ml === fromMl ? last.price : priceAt(version, fromMl);
      const after = priceAt(version, toMl);
      addCost(into, run.key, version.currency, subtractExact(after, before));
      last = { version, ml: toMl, price: after };
      run = undefined;
    };
    for (const { day, volumeMl } of sorted) {
      if (day < period.fromDay || day >= period.toDay) continue;
      const key = keyOf(day);
      const version = key === undefined ? undefined : versionInForce(planVersions, day);
      if (key === undefined || !version) {
        flush();
      } else if (run && run.key === key && run.version === version) {
        run.toMl += volumeMl;
      } else {
        flush();
        run = { key, version, fromMl: cumulative, toMl: cumulative + volumeMl };
      }
      cumulative += volumeMl;
    }
    flush();
  }
  return into;
}
