import {
  addDays,
  localDate,
  localToInstant,
  startOfLocalDay,
  WATER_BALANCE_NIGHT_END_HOUR,
  type WaterBalanceBucket,
  type WaterBalanceSettings,
} from '@flowbox/shared';

/*
 * The water balance's arithmetic (docs/automation.md "Building water balance"), apart from the
 * database: which UTC hours make a night or a day, which hours are complete, and what a night's
 * figures say against the manager's thresholds.
 */

export const HOUR_MS = 3_600_000;

/** A night or a day of the building: its UTC hours, each starting in [start, end). */
export type Span = { date: string; start: Date; end: Date; hours: number[] };

/** UTC hour starts in [start, end): the hourly rollup's keys (a :30 zone's night is 00:30–05:30). */
function hoursIn(start: number, end: number): number[] {
  const hours: number[] = [];
  for (let h = Math.ceil(start / HOUR_MS) * HOUR_MS; h < end; h += HOUR_MS) hours.push(h);
  return hours;
}

/** The night named by a local date: local midnight to 05:00 (4 or 6 hours on a clock change). */
export function nightOf(date: string, timezone: string): Span {
  const start = startOfLocalDay(date, timezone);
  const end = localToInstant(date, `0${WATER_BALANCE_NIGHT_END_HOUR}:00`, timezone);
  return { date, start, end, hours: hoursIn(start.getTime(), end.getTime()) };
}

/** A local day's UTC hours (23, 24 or 25), the buckets of the hourly balance. */
export function dayOf(date: string, timezone: string): Span {
  const start = startOfLocalDay(date, timezone);
  const end = startOfLocalDay(addDays(date, 1), timezone);
  return { date, start, end, hours: hoursIn(start.getTime(), end.getTime()) };
}

/**
 * Readings of a night come in with the next batches: a night is judged this long after it ends,
 * so that ordinary delivery has brought its last hour.
 */
export const JUDGE_GRACE_MS = HOUR_MS;

/** The newest night that ended at least JUDGE_GRACE_MS before `now`. */
export function latestJudgedNight(now: Date, timezone: string): string {
  const today = localDate(now, timezone);
  const ready = (date: string) => nightOf(date, timezone).end.getTime() + JUDGE_GRACE_MS <= now.getTime();
  return ready(today) ? today : addDays(today, -1);
}

/** When the night after `date` is due to be judged. */
export function judgeAtAfter(date: string, timezone: string): Date {
  return new Date(nightOf(addDays(date, 1), timezone).end.getTime() + JUDGE_GRACE_MS);
}

/** A flowbox the balance expects data from: the main supply's or another zone's. */
export type Meter = { flowboxId: string; serial: string; main: boolean; pairedAt: Date | null };
/** One UTC hour of the building's rollup: the main supply zone's volume, the other zones', and who reported. */
export type HourRow = { hour: number; mainMl: number; zonesMl: number; flowboxIds: readonly string[] };

type Hour = { mainMl: number; zonesMl: number; complete: boolean; missing: string[] };

/**
 * Each hour's two sides, and whether it is complete: a meter of the main supply was paired before
 * the hour ended, and every meter paired before the hour ended sent a reading in it. A meter paired
 * later is not expected yet; an hour before any main supply meter has nothing to compare.
 */
function judgeHours(hours: number[], meters: readonly Meter[], rows: readonly HourRow[]): Map<number, Hour> {
  const byHour = new Map<number, Hour & { seen: Set<string> }>();
  for (const hour of hours)
    byHour.set(hour, { mainMl: 0, zonesMl: 0, complete: false, missing: [], seen: new Set() });
  for (const row of rows) {
    const hour = byHour.get(row.hour);
    if (!hour) continue;
    hour.mainMl += row.mainMl;
    hour.zonesMl += row.zonesMl;
    for (const id of row.flowboxIds) hour.seen.add(id);
  }
  for (const [start, hour] of byHour) {
    const expected = meters.filter((m) => m.pairedAt === null || m.pairedAt.getTime() < start + HOUR_MS);
    hour.missing = expected.filter((m) => !hour.seen.has(m.flowboxId)).map((m) => m.serial);
    hour.complete = expected.some((m) => m.main) && hour.missing.length === 0;
  }
  return byHour;
}

const liters = (ml: number) => ml / 1000;
const share = (unaccountedMl: number, mainMl: number) =>
  mainMl > 0 ? Math.round((unaccountedMl / mainMl) * 10_000) / 10_000 : null;

export type Totals = { mainMl: number; zonesMl: number; completeHours: number; incompleteHours: number };

/** The buckets of the balance, and the sums over their complete hours. */
export function balanceOf(
  spans: readonly Span[],
  meters: readonly Meter[],
  rows: readonly HourRow[],
): { buckets: WaterBalanceBucket[]; totals: Totals } {
  const hours = judgeHours(
    spans.flatMap((s) => s.hours),
    meters,
    rows,
  );
  const totals: Totals = { mainMl: 0, zonesMl: 0, completeHours: 0, incompleteHours: 0 };
  const buckets = spans.map((span): WaterBalanceBucket => {
    let mainMl = 0;
    let zonesMl = 0;
    let completeMain = 0;
    let completeZones = 0;
    let complete = 0;
    const missing = new Set<string>();
    for (const start of span.hours) {
      const hour = hours.get(start)!;
      mainMl += hour.mainMl;
      zonesMl += hour.zonesMl;
      if (hour.complete) {
        complete++;
        completeMain += hour.mainMl;
        completeZones += hour.zonesMl;
      } else for (const serial of hour.missing) missing.add(serial);
    }
    totals.mainMl += completeMain;
    totals.zonesMl += completeZones;
    totals.completeHours += complete;
    totals.incompleteHours += span.hours.length - complete;
    return {
      start: span.start.toISOString(),
      end: span.end.toISOString(),
      date: span.date,
      main_l: liters(mainMl),
      zones_l: liters(zonesMl),
      unaccounted_l: complete > 0 ? liters(completeMain - completeZones) : null,
      unaccounted_share: complete > 0 ? share(completeMain - completeZones, completeMain) : null,
      complete: complete === span.hours.length,
      incomplete_hours: span.hours.length - complete,
      missing: [...missing].sort(),
    };
  });
  return { buckets, totals };
}

export type NightVerdict = 'over' | 'under' | 'incomplete';
export type Thresholds = Pick<WaterBalanceSettings, 'alert_liters_per_night' | 'alert_share_pct'>;

/**
 * A night against the manager's thresholds: over when its unaccounted water reaches the litres or
 * the share set; a night with an incomplete hour says nothing (never a loss, never an all-clear).
 */
export function judgeNightBucket(night: WaterBalanceBucket, thresholds: Thresholds): NightVerdict {
  if (!night.complete || night.unaccounted_l === null) return 'incomplete';
  return exceeded(night, thresholds) === null ? 'under' : 'over';
}

/** Which threshold the night passed, the litres' first; null when none. */
export function exceeded(
  night: WaterBalanceBucket,
  thresholds: Thresholds,
): { threshold_l: number } | { threshold_pct: number } | null {
  const { alert_liters_per_night: litersLimit, alert_share_pct: shareLimit } = thresholds;
  if (night.unaccounted_l === null) return null;
  if (litersLimit !== null && night.unaccounted_l >= litersLimit) return { threshold_l: litersLimit };
  if (shareLimit !== null && night.unaccounted_share !== null && night.unaccounted_share * 100 >= shareLimit)
    return { threshold_pct: shareLimit };
  return null;
}
