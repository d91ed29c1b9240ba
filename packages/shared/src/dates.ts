import type { Language } from './roles.ts';

/** spec §3: dates travel as yyyy-MM-dd and show as MM/dd/yyyy (en) or dd/MM/yyyy (fr). */
export const BACKEND_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export const DISPLAY_DATE_FORMAT: Record<Language, string> = {
  en: 'MM/dd/yyyy',
  fr: 'dd/MM/yyyy',
};

export const DISPLAY_DATETIME_FORMAT: Record<Language, string> = {
  en: 'MM/dd/yyyy HH:mm',
  fr: 'dd/MM/yyyy HH:mm',
};

/**
 * The supported span of business dates (docs/reliability.md "Dates: the supported span"): every
 * date a client sends (filters, exports, schedules, pricing plans, subscriptions) lies in it. The
 * service started in the 2020s, so nothing it bills or logs predates 2000, and 2099 leaves room
 * for any contract; the margins the date maths add (a day, a few billing periods) stay far inside
 * what JavaScript dates, `Intl` and PostgreSQL handle (years 0001–9999 with four digits).
 */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '2099-12-31';

const DAY_MS = 86_400_000;

/** True when the text is a real calendar date in backend format (rejects 2025-02-30). */
export function isBackendDate(text: string): boolean {
  if (!BACKEND_DATE_PATTERN.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** A real calendar date within the supported span. */
export function isSupportedDate(text: string): boolean {
  return isBackendDate(text) && text >= DATE_MIN && text <= DATE_MAX;
}

/** Days from 1970-01-01 to a yyyy-MM-dd date (negative before): dates compared and counted as numbers. */
export function dayNumber(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const utc = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes years 0–99 literally.
  utc.setUTCFullYear(year, month - 1, date);
  const n = utc.getTime() / DAY_MS;
  if (!Number.isInteger(n)) throw new RangeError(`not a date: ${day}`);
  return n;
}

/**
 * The yyyy-MM-dd date of a day number. Only four-digit years are dates here: past 9999-12-31
 * `toISOString` writes "+010000-01-01", which sorts before "9999-12-31" and once made a loop
 * endless, so leaving 0000–9999 throws.
 */
export function dayOfNumber(n: number): string {
  const text = new Date(n * DAY_MS).toISOString();
  if (!Number.isInteger(n) || !/^\d{4}-/.test(text)) throw new RangeError(`day ${n} is outside 0000–9999`);
  return text.slice(0, 10);
}

/** `day` plus `count` days (calendar arithmetic); throws rather than leave the years 0000–9999. */
export function addDays(day: string, count: number): string {
  return dayOfNumber(dayNumber(day) + count);
}

/** Whole days from `from` to `to` (0 when equal, negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The later (`max`) or earlier (`min`) of two yyyy-MM-dd dates. */
export const laterDate = (a: string, b: string): string => (a > b ? a : b);
export const earlierDate = (a: string, b: string): string => (a < b ? a : b);
