import {
  addBillingPeriods,
  addExact,
  divideExact,
  exactInteger,
  formatAmount,
  minorDigits,
  parseExact,
  LITERS_PER_UNIT,
  EXACT_ZERO,
  type BillingType,
  type Currency,
  type Exact,
} from '@flowbox/shared';
import { type VersionWithRanges, versionInForce } from '../billing/index.ts';
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

/** A day after every supported date (DATE_MAX), for subscriptions without an end. */
const OPEN_END = '9999-12-31';

const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));

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
  // Zones subscribed the same day to the same plan have the same periods: counted once.
  const spans = new Map<string, [string, string][]>();
  for (const sub of subscriptions) {
    const planVersions = versions.get(sub.planId) ?? [];
    const billingType = versionInForce(planVersions, sub.startDate)?.billingType ?? 'monthly';
    const end = sub.endDate ?? OPEN_END;
    const key = `${sub.startDate}/${billingType}/${end}`;
    let list = spans.get(key);
    if (!list) spans.set(key, (list = periodSpans(sub.startDate, billingType, end, fromDay, toDay)));
    for (const [periodFrom, periodTo] of list)
      periods.push({ zoneId: sub.zoneId, planId: sub.planId, fromDay: periodFrom, toDay: periodTo });
  }
  return periods;
}

function periodSpans(start: string, billingType: BillingType, end: string, fromDay: string, toDay: string) {
  const spans: [string, string][] = [];
  // Start two periods before the one holding fromDay: the ones before it all ended by then.
  const months = billingType === 'annual' ? 12 : 1;
  const first = Math.max(0, Math.floor((monthIndex(fromDay) - monthIndex(start)) / months) - 2);
  // The periods overlapping [fromDay, toDay) are the months between them plus those margins: the
  // walk is bounded by the range asked, not by the subscription's age nor its open end (issue #20).
  const last = first + Math.ceil((monthIndex(toDay) - monthIndex(fromDay) + 1) / months) + 4;
  for (let k = first; k <= last; k += 1) {
    const periodFrom = addBillingPeriods(start, billingType, k);
    if (periodFrom >= end || periodFrom >= toDay) break;
    const periodTo = minDay(addBillingPeriods(start, billingType, k + 1), end);
    if (periodTo > fromDay) spans.push([periodFrom, periodTo]);
  }
  return spans;
}

const minDay = (a: string, b: string) => (a < b ? a : b);

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}
const lcm = (a: bigint, b: bigint) => (a / gcd(a, b)) * b;

/**
 * A version's graduated price (the shared `priceVolume`) as integer maths on millilitres: the
 * price of `ml` is `numerator(ml) / denominator`, with one denominator per version. Every bound,
 * price and the unit's litres are exact decimals, so scaling them to a common denominator is
 * exact; it spares the greatest common divisor that every exact operation computes, which was
 * most of a customer's year.
 */
type PriceTable = {
  /** Millilitres → the volume in the unit, scaled: x = ml × perMl stands for ml / 1000 / litres-per-unit. */
  perMl: bigint;
  ranges: { start: bigint; end: bigint | null; price: bigint }[];
  denominator: bigint;
  /** A scaled volume over this is the volume in the unit. */
  volumeDenominator: bigint;
};
const priceTables = new WeakMap<VersionWithRanges, PriceTable>();

function priceTableOf(version: VersionWithRanges): PriceTable {
  const cached = priceTables.get(version);
  if (cached) return cached;
  const liters = parseExact(LITERS_PER_UNIT[version.volumeUnit]);
  const ranges = version.ranges.map((r) => ({
    start: parseExact(r.volume_start),
    end: r.volume_end === null ? null : parseExact(r.volume_end),
    price: parseExact(r.price_per_unit),
  }));
  // volume = ml / (1000 × liters.n / liters.d); bounds over `bounds`, prices over `prices`.
  const perUnit = 1000n * liters.n;
  const bounds = ranges.reduce((d, r) => lcm(lcm(d, r.start.d), r.end?.d ?? 1n), 1n);
  const prices = ranges.reduce((d, r) => lcm(d, r.price.d), 1n);
  const scaled = (bound: Exact) => bound.n * (bounds / bound.d) * perUnit;
  const table: PriceTable = {
    perMl: liters.d * bounds,
    ranges: ranges.map((r) => ({
      start: scaled(r.start),
      end: r.end === null ? null : scaled(r.end),
      price: r.price.n * (prices / r.price.d),
    })),
    denominator: perUnit * bounds * prices,
    volumeDenominator: perUnit * bounds,
  };
  priceTables.set(version, table);
  return table;
}

/** The numerator of the price of a cumulative volume, over the version's `denominator`. */
function priceNumerator(table: PriceTable, cumulativeMl: number): bigint {
  const volume = BigInt(cumulativeMl) * table.perMl;
  let total = 0n;
  // Ranges are contiguous from 0 (spec §5): past the volume, no later range bills anything.
  for (const range of table.ranges) {
    if (volume <= range.start) break;
    const end = range.end === null || volume < range.end ? volume : range.end;
    total += (end - range.start) * range.price;
  }
  return total;
}

/** The graduated price of a cumulative volume in millilitres: the shared `priceVolume`, exactly. */
export function priceAt(version: VersionWithRanges, cumulativeMl: number): Exact {
  const table = priceTableOf(version);
  return divideExact(exactInteger(priceNumerator(table, cumulativeMl)), exactInteger(table.denominator));
}

/**
 * Exact amounts per currency: a list of fractions, added as integers where they share a
 * denominator (most share their version's) and reduced only when read.
 */
export class Amounts {
  private readonly terms: { currency: Currency; n: bigint; d: bigint }[] = [];

  add(currency: Currency, numerator: bigint, denominator: bigint): void {
    const last = this.terms.at(-1);
    if (last && last.currency === currency && last.d === denominator) last.n += numerator;
    else this.terms.push({ currency, n: numerator, d: denominator });
  }

  /** Adds `other`, multiplied by `share` (numerator/denominator, the hours' pro rata) when given. */
  addAll(other: Amounts, share?: { n: bigint; d: bigint }): void {
    for (const { currency, n, d } of other.terms)
      if (share) this.add(currency, n * share.n, d * share.d);
      else this.add(currency, n, d);
  }

  currencies(): Currency[] {
    return [...new Set(this.terms.map((t) => t.currency))];
  }

  /** The fractions of a currency, those with the same denominator added. */
  private fractions(currency: Currency): [bigint, bigint][] {
    const byDenominator = new Map<bigint, bigint>();
    for (const { currency: c, n, d } of this.terms)
      if (c === currency) byDenominator.set(d, (byDenominator.get(d) ?? 0n) + n);
    return [...byDenominator].map(([d, n]) => [n, d]);
  }

  get(currency: Currency): Exact {
    let total = EXACT_ZERO;
    for (const [numerator, denominator] of this.fractions(currency))
      total = addExact(total, divideExact(exactInteger(numerator), exactInteger(denominator)));
    return total;
  }

  /**
   * `formatAmount(this.get(currency), currency)`, the same string, without the exact sum: a day
   * window's hours carry their day's cost pro rata of its volume, so a customer's bucket adds
   * hundreds of fractions with unrelated denominators, whose exact sum has thousands of digits.
   * Each fraction is taken to 64 bits below the minor unit (rounded down); the sum is then known
   * within one such step per fraction, which decides the rounding unless the amount lies that
   * close to a half minor unit, when the exact sum decides.
   */
  format(currency: Currency): string {
    const digits = minorDigits(currency);
    const terms = this.fractions(currency);
    const scale = (10n ** BigInt(digits)) << GUARD_BITS;
    let low = 0n;
    for (const [numerator, denominator] of terms) low += floorDivide(numerator * scale, denominator);
    const high = low + BigInt(terms.length);
    const half = 1n << (GUARD_BITS - 1n);
    // Half away from zero (formatExact): the magnitude's nearest unit, ties up.
    const units = (scaled: bigint) =>
      scaled >= 0n ? (scaled + half) >> GUARD_BITS : -((-scaled + half) >> GUARD_BITS);
    if (low >= 0n || high <= 0n) {
      const [a, b] = low >= 0n ? [units(low), units(high)] : [units(high), units(low)];
      // The true value lies in [low, high); rounding is monotonic, so equal ends decide it.
      if (a === b) return formatAmount({ n: a, d: 10n ** BigInt(digits) }, currency);
    }
    return formatAmount(this.get(currency), currency);
  }
}

const GUARD_BITS = 64n;
const floorDivide = (a: bigint, b: bigint) => {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
};

/**
 * What each range of each price version billed (a report's cost per tier, docs/reports.md):
 * `costDays` given a tally adds each run's slice of every range it crosses, the same slices whose
 * prices make the run's cost, so a version's tiers add up exactly to what it priced.
 */
export class TierTally {
  private readonly byVersion = new Map<VersionWithRanges, { scaled: bigint[]; numerators: bigint[] }>();

  add(version: VersionWithRanges, fromMl: number, toMl: number): void {
    const table = priceTableOf(version);
    let line = this.byVersion.get(version);
    if (!line)
      this.byVersion.set(
        version,
        (line = { scaled: table.ranges.map(() => 0n), numerators: table.ranges.map(() => 0n) }),
      );
    const from = BigInt(fromMl) * table.perMl;
    const to = BigInt(toMl) * table.perMl;
    table.ranges.forEach((range, i) => {
      const low = from > range.start ? from : range.start;
      const high = range.end === null || to < range.end ? to : range.end;
      if (high <= low) return;
      line.scaled[i]! += high - low;
      line.numerators[i]! += (high - low) * range.price;
    });
  }

  /** Each version's ranges that billed anything: the volume in the version's unit and the amount. */
  tiers(): { version: VersionWithRanges; index: number; volume: Exact; amount: Exact }[] {
    return [...this.byVersion].flatMap(([version, line]) => {
      const table = priceTableOf(version);
      return line.scaled.flatMap((scaled, index) =>
        scaled === 0n
          ? []
          : [
              {
                version,
                index,
                volume: divideExact(exactInteger(scaled), exactInteger(table.volumeDenominator)),
                amount: divideExact(exactInteger(line.numerators[index]!), exactInteger(table.denominator)),
              },
            ],
      );
    });
  }
}

/** Amounts per destination key. */
export type CostsByKey = Map<string, Amounts>;

/**
 * The cost of one zone's days, gathered by destination: `keyOf(day)` names where a day's cost
 * goes (a bucket), or undefined for days only counted towards the period's volume. `days` are the
 * zone's daily volumes (or sums of consecutive days, `day` the first), any order, covering its
 * periods from their first day.
 */
export function costDays(
  days: DailyVolume[],
  periods: BillingPeriod[],
  versions: VersionsByPlan,
  keyOf: (day: string) => string | undefined,
  into: CostsByKey = new Map(),
  tally?: TierTally,
): CostsByKey {
  const sorted = [...days].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const ordered = [...periods].sort((a, b) => (a.fromDay < b.fromDay ? -1 : a.fromDay > b.fromDay ? 1 : 0));
  // Days and periods are both in order: each period starts reading where the previous one stopped.
  let next = 0;
  for (const period of ordered) {
    const planVersions = versions.get(period.planId) ?? [];
    let cumulative = 0;
    let run: { key: string; version: VersionWithRanges; fromMl: number; toMl: number } | undefined;
    // A run usually starts where the previous one ended: its price there is already known.
    let last: { version: VersionWithRanges; ml: number; price: bigint } | undefined;
    const flush = () => {
      if (!run || run.toMl === run.fromMl) return void (run = undefined);
      const { version, fromMl, toMl } = run;
      const table = priceTableOf(version);
      const before =
        last && last.version === version && last.ml === fromMl ? last.price : priceNumerator(table, fromMl);
      const after = priceNumerator(table, toMl);
      let amounts = into.get(run.key);
      if (!amounts) into.set(run.key, (amounts = new Amounts()));
      amounts.add(version.currency, after - before, table.denominator);
      tally?.add(version, fromMl, toMl);
      last = { version, ml: toMl, price: after };
      run = undefined;
    };
    while (next > 0 && sorted[next - 1]!.day >= period.fromDay) next -= 1;
    while (next < sorted.length && sorted[next]!.day < period.fromDay) next += 1;
    for (; next < sorted.length && sorted[next]!.day < period.toDay; next += 1) {
      const { day, volumeMl } = sorted[next]!;
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
