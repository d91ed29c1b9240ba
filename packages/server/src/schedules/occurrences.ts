import {
  addDays,
  daysBetween,
  laterDate,
  localDate,
  localDateTime,
  localToInstant,
  type ScheduleValues,
  type Weekday,
} from '@flowbox/shared';
import * as rruleModule from 'rrule';

// rrule ships CommonJS and an ES build: Node's ESM loads the former (named exports on `default`),
// Vite's module runner (e2e, dev) the latter (named exports only). Either way, the same class.
const { RRule } =
  'RRule' in rruleModule && rruleModule.RRule
    ? rruleModule
    : (rruleModule as unknown as { default: typeof rruleModule }).default;

/** A closing window: the valve closes at `start` and opens at `end` (instants). */
export type Window = { start: Date; end: Date; localStart: string; localEnd: string };

type ScheduleRule = Pick<
  ScheduleValues,
  | 'date_start'
  | 'date_end'
  | 'closing_time'
  | 'opening_time'
  | 'recurring'
  | 'frequency'
  | 'interval'
  | 'weekdays'
>;

const DAY_MS = 86_400_000;
const FREQ = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY } as const;
const BYDAY = {
  monday: RRule.MO,
  tuesday: RRule.TU,
  wednesday: RRule.WE,
  thursday: RRule.TH,
  friday: RRule.FR,
  saturday: RRule.SA,
  sunday: RRule.SU,
} satisfies Record<Weekday, unknown>;

/**
 * The windows of a schedule that end after `from`, in order, at most `limit` of them.
 *
 * rrule works on "floating" dates here: it is given local calendar days written as UTC midnight
 * and only ever picks days; each day's closing and opening wall-clock times are then placed in the
 * building's time zone by `localToInstant`. So a 22:00–06:00 closing stays 22:00–06:00 local on
 * both sides of a daylight-saving change (the window is then 7 or 9 hours long), which rrule's
 * own TZID handling, working in instants, does not promise.
 */
export function windowsAfter(rule: ScheduleRule, timezone: string, from: Date, limit: number): Window[] {
  return walkWindows(rule, timezone, from, limit).windows;
}

/**
 * The walk behind `windowsAfter`, with the number of recurrence days it visited. A recurring rule
 * is expanded from a day on its own grid within one period before `from` (`alignedStart`), so a
 * schedule's age costs nothing: a daily closing since 2000 asked in 2099 visits a few days, not
 * 36,000 (issue #20: the job pass runs every 15 s). `start: 'date_start'` walks from the first
 * day instead, as the tests' reference.
 */
export function walkWindows(
  rule: ScheduleRule,
  timezone: string,
  from: Date,
  limit: number,
  start: 'aligned' | 'date_start' = 'aligned',
): { windows: Window[]; steps: number } {
  const found: Window[] = [];
  let steps = 0;
  if (limit <= 0) return { windows: found, steps };
  if (!rule.recurring) {
    const window = placeWindow(
      rule.date_start,
      rule.closing_time,
      rule.date_end,
      rule.opening_time,
      timezone,
    );
    return { windows: window && window.end > from ? [window] : [], steps };
  }
  // A window that started the day before may still run: start looking one local day early.
  const fromDay = localDate(from.getTime() - DAY_MS, timezone);
  const overnight = rule.opening_time <= rule.closing_time;
  const days = recurrenceDays(rule, start === 'aligned' ? alignedStart(rule, fromDay) : rule.date_start);
  days.all((day) => {
    steps++;
    const date = day.toISOString().slice(0, 10);
    if (date < fromDay) return true;
    const endDate = overnight ? addDays(date, 1) : date;
    const window = placeWindow(date, rule.closing_time, endDate, rule.opening_time, timezone);
    if (window && window.end > from) found.push(window);
    return found.length < limit;
  });
  return { windows: found, steps };
}

/** The windows running at `at` (start ≤ at < end). */
export function windowsRunningAt(rule: ScheduleRule, timezone: string, at: Date): Window[] {
  return windowsAfter(rule, timezone, at, 3).filter((w) => w.start <= at && at < w.end);
}

/**
 * The rule's days from `firstDay`, which is `date_start` or a later day on the rule's grid.
 * Weekdays and the day of the month are always given, so they never fall back on rrule's default
 * of `dtstart`'s own weekday or day.
 */
function recurrenceDays(rule: ScheduleRule, firstDay: string) {
  const monthly = rule.frequency === 'monthly';
  return new RRule({
    freq: FREQ[rule.frequency ?? 'daily'],
    interval: rule.interval,
    dtstart: new Date(`${firstDay}T00:00:00Z`),
    until: new Date(`${rule.date_end}T00:00:00Z`),
    ...(rule.frequency === 'weekly' ? { byweekday: rule.weekdays.map((d) => BYDAY[d]) } : {}),
    // spec §3 monthly: on the start date's day of the month; months without that day are skipped.
    ...(monthly ? { bymonthday: [Number(rule.date_start.slice(8, 10))] } : {}),
  });
}

/**
 * The latest day on or before `fromDay` that starts one of the rule's periods (or `date_start`
 * itself): every `interval` days, weeks or months counted from `date_start`'s day, week or month,
 * as rrule counts them (weeks starting on Monday, its default). Walking from there yields the
 * same days on and after `fromDay` as walking from `date_start`.
 */
function alignedStart(rule: ScheduleRule, fromDay: string): string {
  if (fromDay <= rule.date_start) return rule.date_start;
  const n = rule.interval;
  if (rule.frequency === 'weekly') {
    const firstMonday = mondayOf(rule.date_start);
    const weeks = daysBetween(firstMonday, mondayOf(fromDay)) / 7;
    return laterDate(rule.date_start, addDays(firstMonday, (weeks - (weeks % n)) * 7));
  }
  if (rule.frequency === 'monthly') {
    const first = monthNumber(rule.date_start);
    const months = monthNumber(fromDay) - first;
    const month = first + months - (months % n);
    const yearMonth = `${String(Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}`;
    return laterDate(rule.date_start, `${yearMonth}-01`);
  }
  const days = daysBetween(rule.date_start, fromDay);
  return addDays(rule.date_start, days - (days % n));
}

function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 is Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** Months since year 0: 2026-03-… is 2026 × 12 + 2. */
function monthNumber(day: string): number {
  return Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
}

/**
 * A window from local (date, time) to local (date, time); none when the clock change swallows it
 * (a 02:00–03:00 closing on the night clocks go forward).
 */
function placeWindow(
  startDate: string,
  startTime: string,
  endDate: string,
  endTime: string,
  timezone: string,
): Window | null {
  const start = localToInstant(startDate, startTime, timezone);
  const end = localToInstant(endDate, endTime, timezone);
  if (end <= start) return null;
  return {
    start,
    end,
    localStart: localDateTime(start, timezone),
    localEnd: localDateTime(end, timezone),
  };
}

/** Minutes between closing and opening by the wall clock (spec §3 "duration"). */
export function wallClockMinutes(rule: ScheduleRule): number {
  const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const closing = minutesOf(rule.closing_time);
  const opening = minutesOf(rule.opening_time);
  if (rule.recurring) return opening > closing ? opening - closing : opening + 1440 - closing;
  const days = (Date.parse(rule.date_end) - Date.parse(rule.date_start)) / DAY_MS;
  return days * 1440 + opening - closing;
}
