import { addDays, localDate, startOfLocalDay, type ReportFrequency } from '@flowbox/shared';
import { addMonths, startOfWeek } from '../consumption/index.ts';

/*
 * A schedule's periods (docs/reports.md "When"): weekly from Monday 00:00 to the next Monday 00:00,
 * monthly from the first of a month 00:00 to the next first, in the scope's time zone. Pure
 * functions of the frequency, an instant and the time zone, so that tests pin all three.
 */

/** The local days a report covers: `from` to `to`, both included. */
export type ReportPeriod = { from: string; to: string };

/** The first day of the period holding `day`. */
function periodStart(frequency: ReportFrequency, day: string): string {
  return frequency === 'weekly' ? startOfWeek(day, 'monday') : addMonths(day, 0);
}

function nextStart(frequency: ReportFrequency, start: string): string {
  return frequency === 'weekly' ? addDays(start, 7) : addMonths(start, 1);
}

/** When the period running at `now` ends: the next report of a schedule made at `now`. */
export function nextDueAt(frequency: ReportFrequency, now: Date, timezone: string): Date {
  const start = periodStart(frequency, localDate(now, timezone));
  return startOfLocalDay(nextStart(frequency, start), timezone);
}

/**
 * The period a report due at `dueAt` covers: the whole period that ended by then, the one before
 * the local day `dueAt` falls on (its day, whatever the time zone became since it was set).
 */
export function periodEndingAt(frequency: ReportFrequency, dueAt: Date, timezone: string): ReportPeriod {
  const lastDay = addDays(localDate(dueAt, timezone), -1);
  const from = periodStart(frequency, lastDay);
  return { from, to: addDays(nextStart(frequency, from), -1) };
}
