import { tzOffset } from '@date-fns/tz';
import { dayNumber } from '../dates.ts';
import type { Language } from '../roles.ts';

/*
 * Instants and local wall clocks in IANA time zones, written once (docs/decisions.md "One
 * time-zone module"). The zone data come from `@date-fns/tz`'s `tzOffset` (the runtime's `Intl`,
 * one formatter kept per zone); everything else is exact UTC arithmetic on that offset, so a
 * local date or wall-clock time is the instant plus its offset. Like the calendar helpers of
 * `dates.ts`, nothing here writes a year outside 0000–9999: it throws a RangeError instead.
 */

const MINUTE = 60_000;
const QUARTER_HOUR = 15 * MINUTE;
const DAY = 86_400_000;

/** The local wall clock minus UTC at an instant, in ms (Europe/Paris in summer: 2 h; +05:45 in Kathmandu). */
export function utcOffsetMs(at: Date | number, timezone: string): number {
  const minutes = tzOffset(timezone, new Date(at));
  if (Number.isNaN(minutes)) throw new RangeError(`no offset for ${String(at)} in time zone ${timezone}`);
  // Historical offsets may hold seconds (Paris mean time, +00:09:21): kept to the second.
  return Math.round(minutes * 60) * 1000;
}

/** "2026-03-29T03:30:00.000": the local wall clock of an instant, ISO-written; years 0000–9999 only. */
function wallClock(at: Date | number, timezone: string): string {
  const ms = new Date(at).getTime();
  const text = new Date(ms + utcOffsetMs(ms, timezone)).toISOString();
  if (!/^\d{4}-/.test(text)) throw new RangeError(`${text} is outside 0000–9999`);
  return text;
}

/** The local date (yyyy-MM-dd, spec §3 backend format) at an instant in a time zone. */
export function localDate(at: Date | number, timezone: string): string {
  return wallClock(at, timezone).slice(0, 10);
}

/** "2026-03-29T03:30": the local date and wall-clock time (to the minute) of an instant. */
export function localDateTime(at: Date | number, timezone: string): string {
  return wallClock(at, timezone).slice(0, 16);
}

/** The instant a local date starts in a time zone (its local midnight, or the first instant after). */
export function startOfLocalDay(day: string, timezone: string): Date {
  const midnight = dayNumber(day) * DAY;
  let guess = midnight - utcOffsetMs(midnight, timezone);
  guess = midnight - utcOffsetMs(guess, timezone);
  // A day starting in a gap (no local midnight) starts at the first local instant of that day;
  // every offset in use is a whole number of quarter hours (Asia/Kathmandu +05:45), and no gap is
  // longer than a day (Pacific/Apia skipped 30 December 2011), so a bounded walk finds it.
  for (let step = 0; step < 26 * 4 && localDate(guess, timezone) < day; step++) guess += QUARTER_HOUR;
  return new Date(guess);
}

/**
 * The instant of a local date and wall-clock time ("HH:mm") in a time zone (docs/schedules.md):
 * - a time that happens twice (clocks go back) is its first occurrence, the summer-time one;
 * - a time that does not exist (clocks go forward) is moved forward by the length of the gap
 *   (02:30 becomes 03:30), as the clock on the wall would read had it not jumped.
 * This is what Temporal calls the "compatible" disambiguation.
 */
export function localToInstant(date: string, time: string, timezone: string): Date {
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  const before = utcOffsetMs(asUtc - DAY, timezone);
  const after = utcOffsetMs(asUtc + DAY, timezone);
  const candidates = [...new Set([before, after])]
    .map((offset) => asUtc - offset)
    .filter((instant) => localDateTime(instant, timezone) === `${date}T${time}`)
    .sort((a, b) => a - b);
  return new Date(candidates[0] ?? asUtc - before);
}

/**
 * An instant as people of a building read it: its local date and time in the display format of
 * spec §3 ("11/24/2026 23:43" in English, "24/11/2026 23:43" in French).
 */
export function displayLocalDateTime(at: Date | number, timezone: string, language: Language): string {
  const [date = '', time = ''] = localDateTime(at, timezone).split('T');
  return `${displayDate(date, language)} ${time}`;
}

/** A backend date (yyyy-MM-dd) in the display format of spec §3. */
export function displayDate(date: string, language: Language): string {
  const [y, m, d] = date.split('-');
  return language === 'fr' ? `${d}/${m}/${y}` : `${m}/${d}/${y}`;
}
