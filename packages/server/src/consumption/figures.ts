import {
  addExact,
  compareExact,
  divideExact,
  EXACT_ZERO,
  exactInteger,
  formatExact,
  fromLiters,
  multiplyExact,
  subtractExact,
  type Comparison,
  type Currency,
  type Exact,
  type VolumeUnit,
  type Weekday,
} from '@flowbox/shared';
import type { ScopeZone } from './consumption.repo.ts';
import { Amounts } from './costs.ts';
import { addDays, localDate, type Bucket, type WindowPlan } from './windows.ts';

/*
 * The consumption figures' maths (docs/consumption.md), apart from the service that reads them:
 * exact sums of millilitres, comparisons, the scope's settings, placing readings in a window's
 * buckets, minimum/average/maximum. Nothing here reads the database.
 */

/** The settings a multi-building scope is shown in (docs/consumption.md "Scopes"). */
export type ScopeSettings = { timezone: string; firstDay: Weekday; unit: VolumeUnit; currency: Currency };

/** Per zone, the millilitres of each current and previous bucket and the cost of each bucket. */
export type ZoneFigures = {
  zone: ScopeZone;
  current: number[];
  previous: number[];
  currentCosts: (Amounts | undefined)[];
  previousCosts: (Amounts | undefined)[];
  costed: Set<Currency>;
};

export const HOUR = 3_600_000;
export const ml = (value: number): Exact => exactInteger(value);
/**
 * Millilitres added exactly, as an exact value: as numbers while every partial sum is a safe
 * integer (it is when the magnitudes add up to one), else as BigInt.
 */
export const sumMl = (values: number[]): Exact => {
  let total = 0;
  let magnitude = 0;
  for (const value of values) {
    total += value;
    magnitude += Math.abs(value);
  }
  if (Number.isSafeInteger(magnitude)) return exactInteger(total);
  let exact = 0n;
  for (const value of values) exact += BigInt(value);
  return exactInteger(exact);
};

/** Millilitres as a volume string in a unit, 3 decimals. */
export function volumeIn(millilitres: Exact, unit: VolumeUnit): string {
  return formatExact(fromLiters(divideExact(millilitres, exactInteger(1000)), unit), 3);
}

/** spec §5: comparing is impossible if one of the two periods equals 0. */
export function compare(current: Exact, previous: Exact): Comparison {
  const currentZero = compareExact(current, EXACT_ZERO) === 0;
  const previousZero = compareExact(previous, EXACT_ZERO) === 0;
  if (currentZero || previousZero)
    return {
      change_pct: null,
      reason: currentZero && previousZero ? 'both_zero' : currentZero ? 'current_zero' : 'previous_zero',
    };
  const change = multiplyExact(divideExact(subtractExact(current, previous), previous), exactInteger(100));
  return { change_pct: formatExact(change, 1), reason: null };
}

/** The value most zones use; ties go to the first zone's (zones come by building name). */
export function mostUsed<T>(values: T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: T | undefined;
  for (const value of values) if (best === undefined || counts.get(value)! > counts.get(best)!) best = value;
  return best;
}

const DEFAULT_SETTINGS: ScopeSettings = { timezone: 'UTC', firstDay: 'monday', unit: 'm3', currency: 'EUR' };

export function settingsOf(zones: ScopeZone[], fallback?: ScopeSettings): ScopeSettings {
  if (zones.length === 0) return fallback ?? DEFAULT_SETTINGS;
  return {
    timezone: mostUsed(zones.map((z) => z.timezone))!,
    firstDay: mostUsed(zones.map((z) => z.firstDayOfWeek))!,
    unit: mostUsed(zones.map((z) => z.volumeUnit))!,
    currency: mostUsed(zones.map((z) => z.currency))!,
  };
}

export const sumExact = (values: Exact[]) => values.reduce(addExact, EXACT_ZERO);
export const sumCosts = (amounts: (Amounts | undefined)[]) => {
  const total = new Amounts();
  for (const a of amounts) if (a) total.addAll(a);
  return total;
};

/**
 * The local days a UTC hour's readings may belong to, the one holding most of the hour first:
 * one day where the offset is whole hours; two in time zones with a :30 or :45 offset when the
 * hour holds local midnight (Asia/Kolkata 18:00Z is 23:30–00:30), the later one first on a tie.
 */
export function hourDays(hour: Date, timezone: string): string[] {
  const t = hour.getTime();
  const days = [t + HOUR / 2, t, t + HOUR - 1].map((at) => localDate(new Date(at), timezone));
  return [...new Set(days)];
}

export const elapsedMs = (plan: WindowPlan) => Number(plan.elapsed.n);

/**
 * The previous period's volume up to the same point as now in the current window: its buckets
 * before the last whole, its last one pro rata of the elapsed share of the current last bucket.
 */
export function toDate(previous: Exact[], plan: WindowPlan): Exact {
  const whole = sumExact(previous.slice(0, -1));
  const share = divideExact(exactInteger(plan.elapsed.n), exactInteger(plan.elapsed.d));
  return addExact(whole, multiplyExact(previous.at(-1) ?? EXACT_ZERO, share));
}

/** Finds the bucket of a local day or of an instant. */
export function bucketIndexer(buckets: Bucket[]) {
  const byDay = new Map<string, number>();
  buckets.forEach((b, i) => {
    for (let day = b.fromDay; day < b.toDay; day = addDays(day, 1)) byDay.set(day, i);
  });
  const first = buckets[0]!.start.getTime();
  return {
    ofDay: (day: string) => byDay.get(day),
    ofInstant: (at: Date | number) => {
      const t = typeof at === 'number' ? at : at.getTime();
      if (buckets.length && buckets[0]!.end.getTime() - first === HOUR) {
        const i = Math.floor((t - first) / HOUR);
        return i >= 0 && i < buckets.length ? i : undefined;
      }
      const i = buckets.findIndex((b) => b.start.getTime() <= t && t < b.end.getTime());
      return i < 0 ? undefined : i;
    },
  };
}

export type Stat = { min: number | null; max: number | null; sum: number; count: number };
export const newStat = (): Stat => ({ min: null, max: null, sum: 0, count: 0 });
export function addStat(
  stat: Stat,
  min: number | null,
  max: number | null,
  sum: number,
  count: number,
): void {
  if (count === 0) return;
  stat.min = stat.min === null || (min !== null && min < stat.min) ? min : stat.min;
  stat.max = stat.max === null || (max !== null && max > stat.max) ? max : stat.max;
  stat.sum += sum;
  stat.count += count;
}
export function statOf(stat: Stat) {
  if (stat.count === 0 || stat.min === null || stat.max === null) return null;
  return { min: stat.min, avg: Math.round((stat.sum / stat.count) * 100) / 100, max: stat.max };
}
