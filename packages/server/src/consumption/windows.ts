import {
  addDays,
  daysBetween,
  EXPORT_MAX_DAYS,
  localDate,
  startOfLocalDay,
  WEEKDAYS,
  type ConsumptionWindow,
  type Weekday,
} from '@flowbox/shared';

// Calendar arithmetic and local days are the shared ones, which throw rather than leave the years
// 0000–9999.
export { addDays, localDate, startOfLocalDay };

/*
 * Graph windows (spec §9, docs/consumption.md): which buckets a window has at a given instant, in
 * a building's time zone and first day of week. Pure functions of (window, now, zone settings), so
 * tests pin the clock and the time zone.
 */

const HOUR = 3_600_000;

/**
 * A bucket. Hour buckets (the day window) are UTC hours: an instant range, whatever the local
 * clock does (a 23- or 25-hour day has 23 or 25 of them), labelled by their local start, which is
 * 10:30 in Asia/Kolkata (+05:30) and 10:45 in Asia/Kathmandu (+05:45): the hourly rollup is kept
 * per UTC hour, so local whole hours cannot be drawn there. Day-based buckets cover the local
 * dates `fromDay` (included) to `toDay` (excluded), so a local day is one bucket whatever its
 * length.
 */
export type Bucket = { start: Date; end: Date; date: string; fromDay: string; toDay: string };

export type WindowPlan = {
  window: ConsumptionWindow;
  kind: 'hour' | 'day';
  timezone: string;
  now: Date;
  buckets: Bucket[];
  previous: Bucket[];
  /** How much of the current (last) bucket has elapsed, as a fraction n/d of its length. */
  elapsed: { n: bigint; d: bigint };
};

/** The first day of the month `count` months after the month of `day`; throws past the years 0000–9999. */
export function addMonths(day: string, count: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  const index = year * 12 + month - 1 + count;
  const targetYear = Math.floor(index / 12);
  if (targetYear < 0 || targetYear > 9999)
    throw new RangeError(`${day} plus ${count} months is outside 0000–9999`);
  return `${String(targetYear).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

export function weekdayOf(day: string): Weekday {
  // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
  return WEEKDAYS[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/** The day the week holding `day` starts, for a building whose weeks start on `firstDay`. */
export function startOfWeek(day: string, firstDay: Weekday): string {
  const back = (WEEKDAYS.indexOf(weekdayOf(day)) - WEEKDAYS.indexOf(firstDay) + 7) % 7;
  return addDays(day, -back);
}

function dayBucket(fromDay: string, toDay: string, timezone: string): Bucket {
  return {
    start: startOfLocalDay(fromDay, timezone),
    end: startOfLocalDay(toDay, timezone),
    date: fromDay,
    fromDay,
    toDay,
  };
}

function hourBucket(start: number, timezone: string): Bucket {
  const date = localDate(new Date(start), timezone);
  return { start: new Date(start), end: new Date(start + HOUR), date, fromDay: date, toDay: date };
}

/** Bucket starts (local dates) of a day-based window: `count` steps ending with the one holding today. */
function dayBuckets(starts: string[], next: (day: string) => string, timezone: string): Bucket[] {
  return starts.map((day) => dayBucket(day, next(day), timezone));
}

/**
 * The buckets of a window at `now` and of the period before it (one window earlier: 24 hours,
 * 7 days, 4 weeks or 12 months), oldest first; the last current bucket holds `now`.
 */
export function planWindow(
  window: ConsumptionWindow,
  now: Date,
  timezone: string,
  firstDay: Weekday,
): WindowPlan {
  const today = localDate(now, timezone);
  const range = (count: number, first: number) => Array.from({ length: count }, (_, i) => first + i);
  let buckets: Bucket[];
  let previous: Bucket[];
  if (window === 'day') {
    const hour = Math.floor(now.getTime() / HOUR) * HOUR;
    buckets = range(24, -23).map((i) => hourBucket(hour + i * HOUR, timezone));
    previous = range(24, -47).map((i) => hourBucket(hour + i * HOUR, timezone));
  } else if (window === 'week') {
    const next = (day: string) => addDays(day, 1);
    buckets = dayBuckets(
      range(7, -6).map((i) => addDays(today, i)),
      next,
      timezone,
    );
    previous = dayBuckets(
      range(7, -13).map((i) => addDays(today, i)),
      next,
      timezone,
    );
  } else if (window === 'month') {
    const week = startOfWeek(today, firstDay);
    const next = (day: string) => addDays(day, 7);
    buckets = dayBuckets(
      range(4, -3).map((i) => addDays(week, 7 * i)),
      next,
      timezone,
    );
    previous = dayBuckets(
      range(4, -7).map((i) => addDays(week, 7 * i)),
      next,
      timezone,
    );
  } else {
    const month = addMonths(today, 0);
    const next = (day: string) => addMonths(day, 1);
    buckets = dayBuckets(
      range(12, -11).map((i) => addMonths(month, i)),
      next,
      timezone,
    );
    previous = dayBuckets(
      range(12, -23).map((i) => addMonths(month, i)),
      next,
      timezone,
    );
  }
  const last = buckets.at(-1)!;
  return {
    window,
    kind: window === 'day' ? 'hour' : 'day',
    timezone,
    now,
    buckets,
    previous,
    elapsed: {
      n: BigInt(now.getTime() - last.start.getTime()),
      d: BigInt(last.end.getTime() - last.start.getTime()),
    },
  };
}

/**
 * A plan of one bucket per local day from `fromDay` to `lastDay` (both included), no previous
 * period. Its days are counted first: an export is bounded at the API edge (EXPORT_MAX_DAYS), and
 * the same bound here keeps any caller's work to what it asked (issue #20: a loop comparing dates
 * as strings once never ended past 9999-12-31).
 */
export function dailyPlan(fromDay: string, lastDay: string, timezone: string, now: Date): WindowPlan {
  const count = daysBetween(fromDay, lastDay) + 1;
  if (!(count >= 1 && count <= EXPORT_MAX_DAYS))
    throw new RangeError(`${fromDay}..${lastDay} is not 1 to ${EXPORT_MAX_DAYS} days`);
  const buckets = Array.from({ length: count }, (_, i) => {
    const day = addDays(fromDay, i);
    return dayBucket(day, addDays(day, 1), timezone);
  });
  return { window: 'week', kind: 'day', timezone, now, buckets, previous: [], elapsed: { n: 1n, d: 1n } };
}
