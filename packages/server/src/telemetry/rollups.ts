import type { BatchFlowbox, DailyRow, HourlyRow, ReadingRow } from './telemetry.repo.ts';
import { dayOf, hourStart, placedAt, QUARTER_MS } from './time.ts';

export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A reading of a batch, with its flowbox, its place in the batch and when it is placed. */
export type Candidate = {
  reading: ReadingRow;
  located: BatchFlowbox;
  entry: number;
  placedAt: Date;
  /** Its placement can be trusted as live (clock.ts `Placement.live`). */
  live: boolean;
};

/** What summing a reading needs: its figures, and its building's time zone (the local day). */
export type RolledReading = {
  reading: Omit<ReadingRow, 'seq' | 'intervalS'>;
  located: Pick<BatchFlowbox, 'timezone'>;
};

/**
 * Hourly and daily sums of readings (per zone, flowbox and hour or local day), in key order. The
 * readings come sorted by flowbox, so each flowbox's hours and days are gathered on their own,
 * keyed by number and by the (shared, cached) day string: no key built per reading.
 */
export function rollUp(readings: readonly RolledReading[]): { hourly: HourlyRow[]; daily: DailyRow[] } {
  const hourly: HourlyRow[] = [];
  const daily: DailyRow[] = [];
  let flowboxId: string | undefined;
  let hours = new Map<number, HourlyRow>();
  let days = new Map<string, DailyRow>();
  const lastDay = { timezone: '', quarter: NaN, day: '' };
  for (const c of readings) {
    const r = c.reading;
    if (r.flowboxId !== flowboxId) {
      flowboxId = r.flowboxId;
      hours = new Map();
      days = new Map();
    }
    const hourMs = hourStart(r.measuredAt);
    let h = hours.get(hourMs);
    if (!h) {
      h = {
        zoneId: r.zoneId,
        hour: new Date(hourMs),
        flowboxId: r.flowboxId,
        volumeMl: 0,
        flowS: 0,
        readings: 0,
        temperatureMin: null,
        temperatureMax: null,
        temperatureSum: 0,
        temperatureCount: 0,
        humidityMin: null,
        humidityMax: null,
        humiditySum: 0,
        humidityCount: 0,
      };
      hours.set(hourMs, h);
      hourly.push(h);
    }
    h.volumeMl += r.volumeMl;
    h.flowS += r.flowS;
    h.readings += 1;
    if (r.temperatureC !== null) {
      h.temperatureMin =
        h.temperatureMin === null ? r.temperatureC : Math.min(h.temperatureMin, r.temperatureC);
      h.temperatureMax =
        h.temperatureMax === null ? r.temperatureC : Math.max(h.temperatureMax, r.temperatureC);
      h.temperatureSum += r.temperatureC;
      h.temperatureCount += 1;
    }
    if (r.humidityPct !== null) {
      h.humidityMin = h.humidityMin === null ? r.humidityPct : Math.min(h.humidityMin, r.humidityPct);
      h.humidityMax = h.humidityMax === null ? r.humidityPct : Math.max(h.humidityMax, r.humidityPct);
      h.humiditySum += r.humidityPct;
      h.humidityCount += 1;
    }
    // Local dates change only on quarter hours (time.ts): the previous reading's day often holds.
    const quarter = Math.floor(placedAt(r.measuredAt) / QUARTER_MS);
    const timezone = c.located.timezone;
    if (quarter !== lastDay.quarter || timezone !== lastDay.timezone) {
      lastDay.quarter = quarter;
      lastDay.timezone = timezone;
      lastDay.day = dayOf(r.measuredAt, timezone);
    }
    const day = lastDay.day;
    let d = days.get(day);
    if (!d) {
      d = { zoneId: r.zoneId, day, flowboxId: r.flowboxId, volumeMl: 0, flowS: 0, readings: 0 };
      days.set(day, d);
      daily.push(d);
    }
    d.volumeMl += r.volumeMl;
    d.flowS += r.flowS;
    d.readings += 1;
  }
  const byHour = (a: HourlyRow, b: HourlyRow) =>
    compare(a.zoneId, b.zoneId) || a.hour.getTime() - b.hour.getTime() || compare(a.flowboxId, b.flowboxId);
  const byDay = (a: DailyRow, b: DailyRow) =>
    compare(a.zoneId, b.zoneId) || compare(a.day, b.day) || compare(a.flowboxId, b.flowboxId);
  return { hourly: hourly.sort(byHour), daily: daily.sort(byDay) };
}
