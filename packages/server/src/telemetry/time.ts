import { localDate } from '@flowbox/shared';

/*
 * Which hour and which day a reading belongs to (docs/telemetry.md "Placing a reading"). A reading
 * covers the interval (at − interval_s, at]; it is placed, whole, at its last instant `at − 1 ms`,
 * so a minute reading ending on the hour (10:00:00.000) counts in the hour that ended (09:00), and
 * one ending at local midnight counts in the day that ended. Rollups, the read API and any
 * recomputation from raw readings use these two functions only.
 */

const HOUR_MS = 3_600_000;
/** Every time zone's offset is a whole number of quarter hours: local dates change only on them. */
export const QUARTER_MS = 900_000;

/** The instant a reading is placed at. */
export function placedAt(measuredAt: Date): number {
  return measuredAt.getTime() - 1;
}

/** Start of the UTC hour the reading belongs to. */
export function hourOf(measuredAt: Date): Date {
  return new Date(hourStart(measuredAt));
}

/** The same, in milliseconds since the epoch. */
export function hourStart(measuredAt: Date): number {
  const t = placedAt(measuredAt);
  return t - (((t % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

const dayCache = new Map<string, string>();
const DAY_CACHE_MAX = 50_000;

/** The building's local date (YYYY-MM-DD) the reading belongs to, in IANA time zone `timezone`. */
export function dayOf(measuredAt: Date, timezone: string): string {
  const t = placedAt(measuredAt);
  const quarter = Math.floor(t / QUARTER_MS);
  const key = `${timezone}|${quarter}`;
  const cached = dayCache.get(key);
  if (cached) return cached;
  const day = localDate(t, timezone);
  if (dayCache.size >= DAY_CACHE_MAX) dayCache.clear();
  dayCache.set(key, day);
  return day;
}
