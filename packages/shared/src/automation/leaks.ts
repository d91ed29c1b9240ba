import { dayNumber, dayOfNumber } from '../dates.ts';
import { localDate, localDateTime, localToInstant, startOfLocalDay } from '../time/zoned.ts';

/**
 * Leak analytics from hourly figures (issue 29 "Leak analytics of the best meters";
 * docs/automation.md "Leak analytics" is this file in prose). Pure: the server reads a zone's or a
 * building's hours from `consumption_hourly` and calls `analyseLeaks`; tests on real households
 * (DAIAD) call the same functions. The exported names below are stable.
 *
 * Input: `HourFigure`s, one per UTC hour (`hour` its start) — several rows of one hour (one per
 * flowbox of a zone, or per zone of a building) are summed, and nothing depends on their order.
 * An hour is *flowing* when its volume is above 0, *flow-free* when it is complete (ended by
 * `asOf`) and its volume is 0; an hour without figures is unknown. Only hours starting before
 * `asOf` count.
 *
 * - `continuousFlowState(hours, asOf)` → `ContinuousFlow`: the Kamstrup flowIQ LEAK info code.
 *   `hours` is the hour counter, the hours from the end of the last flow-free hour to the end of
 *   the latest flowing hour (unknown hours between them count: only an hour seen at zero clears
 *   it); `active` when it reaches `CONTINUOUS_FLOW_HOURS` (24: no flow-free hour in 24 h).
 *   `atLeast` when no flow-free hour is in the figures given (the counter is a lower bound).
 *   `floorLph`: the lowest complete hour of the run's last 24 (the flow that never stopped).
 * - `nightFlows(hours, timezone, asOf)` → `NightFlow[]`: UKWIR minimum night flow, per local night
 *   (dated by its morning) the lowest hour among the UTC hours starting between 00:00 and 05:00
 *   local (at least `NIGHT_MIN_HOURS` of them known), for nights ended by `asOf`.
 * - `nightPercentile(nights, asOf, timezone)`: the 20th percentile (nearest rank: the
 *   ⌈0.2·n⌉-th lowest, an observed value) of the night flows of the last `PERCENTILE_NIGHTS` (7)
 *   nights, null with fewer than `PERCENTILE_MIN_NIGHTS` (3) of them known.
 * - `nightAllowanceLph(occupants)`: legitimate night use, `ALLOWANCE_LPH_PER_OCCUPANT` per
 *   occupant, `DEFAULT_OCCUPANTS` when unknown (null).
 * - `continuousFlowDays(hours, timezone, asOf)`: the local days (yyyy-MM-dd) whose every hour is
 *   known and flowing (a day without a flow-free hour), ended by `asOf`.
 * - `analyseLeaks(input)` → `LeakAnalysis`: all of the above, and the estimated loss per day:
 *   `lossLph` is the larger of the night excess (percentile minus allowance, at least 0) and, while
 *   continuous flow is active, its floor; `lossLitresPerDay` = 24 × `lossLph`, its cost at
 *   `pricePerM3` (null without a price).
 * Volumes out are litres (L/h for rates), rounded to the millilitre.
 */

const HOUR_MS = 3_600_000;

/** No flow-free hour for this many hours is continuous flow (Kamstrup flowIQ LEAK). */
export const CONTINUOUS_FLOW_HOURS = 24;
/** The night window of minimum night flow, local hours [start, end) (UKWIR). */
export const NIGHT_START_HOUR = 0;
export const NIGHT_END_HOUR = 5;
/** A night needs this many known hours in its window to have a minimum. */
export const NIGHT_MIN_HOURS = 3;
/** The percentile of night flows judged (UKWIR: the 20th over 7 nights). */
export const NIGHT_PERCENTILE = 0.2;
export const PERCENTILE_NIGHTS = 7;
export const PERCENTILE_MIN_NIGHTS = 3;
/** Legitimate night use per occupant, L/h: the top of UKWIR's 1.3–2.5, so an excess is beyond doubt. */
export const ALLOWANCE_LPH_PER_OCCUPANT = 2.5;
/** Occupants assumed for a zone whose occupants are unknown (about a household). */
export const DEFAULT_OCCUPANTS = 2;

/** One UTC hour's water: `hour` its start, volume in millilitres. */
export type HourFigure = { hour: Date | number; volumeMl: number };

export type ContinuousFlow = {
  /** Hours since the last flow-free hour (0 when the latest known hour is flow-free). */
  hours: number;
  /** The counter reached CONTINUOUS_FLOW_HOURS. */
  active: boolean;
  /** Start of the run (end of the last flow-free hour, or the first figure): ISO UTC; null when not flowing. */
  since: string | null;
  /** No flow-free hour in the figures given: `hours` is a lower bound. */
  atLeast: boolean;
  /** Lowest complete hour among the run's last 24 hours, L/h; null when not flowing. */
  floorLph: number | null;
};

/** A night's minimum: `night` the local date of its morning, `minLph` the lowest hour (L/h). */
export type NightFlow = { night: string; minLph: number; hour: string };

export type LeakInput = {
  hours: readonly HourFigure[];
  timezone: string;
  /** The moment of the analysis (usually now): later hours are ignored, nights must have ended. */
  asOf: Date | number;
  occupants: number | null;
  /** The price of a cubic metre in the zone's currency, null when none. */
  pricePerM3?: number | null;
};

export type LeakAnalysis = {
  continuousFlow: ContinuousFlow;
  nights: NightFlow[];
  /** 20th percentile of the last 7 nights' minimum, L/h; null with too few nights. */
  nightFlowLph: number | null;
  allowanceLph: number;
  aboveAllowance: boolean;
  continuousFlowDays: string[];
  lossLph: number;
  lossLitresPerDay: number;
  lossCostPerDay: number | null;
};

const litres = (ml: number) => Math.round(ml) / 1000;
const toMs = (at: Date | number) => (typeof at === 'number' ? at : at.getTime());

/** The figures summed per hour (start ms → ml), hours starting before `asOf` only, in time order. */
export function sumHours(hours: readonly HourFigure[], asOf: Date | number): [number, number][] {
  const end = toMs(asOf);
  const sums = new Map<number, number>();
  for (const h of hours) {
    const start = toMs(h.hour);
    if (start >= end) continue;
    sums.set(start, (sums.get(start) ?? 0) + h.volumeMl);
  }
  return [...sums].sort((a, b) => a[0] - b[0]);
}

export function continuousFlowState(hours: readonly HourFigure[], asOf: Date | number): ContinuousFlow {
  const end = toMs(asOf);
  const summed = sumHours(hours, end);
  const known = summed.filter(([start, ml]) => ml > 0 || start + HOUR_MS <= end);
  const last = known.at(-1);
  if (!last || last[1] <= 0) return { hours: 0, active: false, since: null, atLeast: false, floorLph: null };
  let first = known.length - 1;
  while (first > 0 && known[first - 1]![1] > 0) first -= 1;
  const atLeast = first === 0;
  const since = atLeast ? known[0]![0] : known[first - 1]![0] + HOUR_MS;
  const counter = Math.round((last[0] + HOUR_MS - since) / HOUR_MS);
  const recent = known
    .slice(first)
    .filter(
      ([start]) => start + HOUR_MS <= end && start >= last[0] + HOUR_MS - CONTINUOUS_FLOW_HOURS * HOUR_MS,
    );
  const floor = recent.length ? Math.min(...recent.map(([, ml]) => ml)) : null;
  return {
    hours: counter,
    active: counter >= CONTINUOUS_FLOW_HOURS,
    since: new Date(since).toISOString(),
    atLeast,
    floorLph: floor === null ? null : litres(floor),
  };
}

/** The local night (its morning's date) an hour starting at `start` belongs to, or null. */
function nightOf(start: number, timezone: string): string | null {
  const wall = localDateTime(start, timezone);
  const hour = Number(wall.slice(11, 13));
  return hour >= NIGHT_START_HOUR && hour < NIGHT_END_HOUR ? wall.slice(0, 10) : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function nightFlows(hours: readonly HourFigure[], timezone: string, asOf: Date | number): NightFlow[] {
  const end = toMs(asOf);
  const byNight = new Map<string, { count: number; min: number; hour: number }>();
  for (const [start, ml] of sumHours(hours, end)) {
    if (start + HOUR_MS > end) continue;
    const night = nightOf(start, timezone);
    if (night === null) continue;
    const seen = byNight.get(night);
    if (!seen) byNight.set(night, { count: 1, min: ml, hour: start });
    else {
      seen.count += 1;
      if (ml < seen.min || (ml === seen.min && start < seen.hour))
        Object.assign(seen, { min: ml, hour: start });
    }
  }
  return [...byNight]
    .filter(
      ([night, n]) =>
        n.count >= NIGHT_MIN_HOURS &&
        localToInstant(night, `${pad(NIGHT_END_HOUR)}:00`, timezone).getTime() <= end,
    )
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([night, n]) => ({ night, minLph: litres(n.min), hour: new Date(n.hour).toISOString() }));
}

/** Nearest-rank percentile (the ⌈p·n⌉-th lowest value), null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** The 20th percentile of the minimum night flows of the last 7 nights ended by `asOf`. */
export function nightPercentile(
  nights: readonly NightFlow[],
  asOf: Date | number,
  timezone: string,
): number | null {
  const end = toMs(asOf);
  // The last night ended by asOf is dated today if 05:00 has passed, else yesterday.
  const today = localDate(end, timezone);
  const endedToday = localToInstant(today, `${pad(NIGHT_END_HOUR)}:00`, timezone).getTime() <= end;
  const lastNight = dayNumber(today) - (endedToday ? 0 : 1);
  const firstNight = dayOfNumber(lastNight - PERCENTILE_NIGHTS + 1);
  const recent = nights.filter((n) => n.night >= firstNight && n.night <= dayOfNumber(lastNight));
  if (recent.length < PERCENTILE_MIN_NIGHTS) return null;
  return percentile(
    recent.map((n) => n.minLph),
    NIGHT_PERCENTILE,
  );
}

export function nightAllowanceLph(occupants: number | null): number {
  return (occupants ?? DEFAULT_OCCUPANTS) * ALLOWANCE_LPH_PER_OCCUPANT;
}

export function continuousFlowDays(
  hours: readonly HourFigure[],
  timezone: string,
  asOf: Date | number,
): string[] {
  const end = toMs(asOf);
  const byDay = new Map<string, { count: number; flowing: boolean }>();
  for (const [start, ml] of sumHours(hours, end)) {
    if (start + HOUR_MS > end) continue;
    const day = localDate(start, timezone);
    const seen = byDay.get(day) ?? { count: 0, flowing: true };
    seen.count += 1;
    seen.flowing &&= ml > 0;
    byDay.set(day, seen);
  }
  const days: string[] = [];
  for (const [day, seen] of byDay) {
    if (!seen.flowing) continue;
    const dayStart = startOfLocalDay(day, timezone).getTime();
    const dayEnd = startOfLocalDay(dayOfNumber(dayNumber(day) + 1), timezone).getTime();
    if (dayEnd > end) continue;
    // The UTC hours starting within the local day (23 or 25 across a change of clocks).
    const expected = Math.ceil((dayEnd - dayStart) / HOUR_MS);
    if (seen.count >= expected) days.push(day);
  }
  return days.sort();
}

/**
 * What an analysis depends on in time besides its hours: the hour in progress, the local date and
 * whether today's night has ended (nights end at NIGHT_END_HOUR local, which need not be a UTC
 * hour). Two instants with the same epoch analyse the same hours alike, and within an epoch water
 * added to the hour in progress changes the analysis only if that hour had none before (only
 * `continuousFlow` reads an hour in progress, and only whether it flows): `analysisUnchanged` is
 * that rule. The server uses it to skip recomputing a zone whose new readings cannot change it.
 */
export function analysisEpoch(asOf: Date | number, timezone: string): string {
  const end = toMs(asOf);
  const today = localDate(end, timezone);
  const nightEnded = localToInstant(today, `${pad(NIGHT_END_HOUR)}:00`, timezone).getTime() <= end;
  return `${Math.floor(end / HOUR_MS)}|${today}|${nightEnded ? 1 : 0}`;
}

/**
 * Whether new water leaves an analysis as it was: `before` is the analysis's epoch and whether its
 * hour in progress flowed, `now` the present epoch, `earliestHour` the start (ms) of the earliest
 * hour the new water went to and `flowingHours` the hours it added water to.
 */
export function analysisUnchanged(
  before: { epoch: string; currentHourFlowing: boolean },
  now: { asOf: Date | number; timezone: string },
  water: { earliestHour: number; flowingHours: ReadonlySet<number> },
): boolean {
  if (before.epoch !== analysisEpoch(now.asOf, now.timezone)) return false;
  const current = Math.floor(toMs(now.asOf) / HOUR_MS) * HOUR_MS;
  if (water.earliestHour < current) return false;
  return before.currentHourFlowing || !water.flowingHours.has(current);
}

/** Whether the hour in progress at `asOf` has water in these figures. */
export function currentHourFlowing(hours: readonly HourFigure[], asOf: Date | number): boolean {
  const current = Math.floor(toMs(asOf) / HOUR_MS) * HOUR_MS;
  let ml = 0;
  for (const h of hours) if (toMs(h.hour) === current) ml += h.volumeMl;
  return ml > 0;
}

export function analyseLeaks(input: LeakInput): LeakAnalysis {
  const { hours, timezone, asOf } = input;
  const continuousFlow = continuousFlowState(hours, asOf);
  const nights = nightFlows(hours, timezone, asOf);
  const nightFlowLph = nightPercentile(nights, asOf, timezone);
  const allowanceLph = nightAllowanceLph(input.occupants);
  const nightExcess = nightFlowLph === null ? 0 : Math.max(0, nightFlowLph - allowanceLph);
  const flowFloor = continuousFlow.active ? (continuousFlow.floorLph ?? 0) : 0;
  const lossLph = litres(Math.max(nightExcess, flowFloor) * 1000);
  const lossLitresPerDay = litres(lossLph * 24 * 1000);
  const price = input.pricePerM3 ?? null;
  return {
    continuousFlow,
    nights,
    nightFlowLph,
    allowanceLph,
    aboveAllowance: nightFlowLph !== null && nightFlowLph > allowanceLph,
    continuousFlowDays: continuousFlowDays(hours, timezone, asOf),
    lossLph,
    lossLitresPerDay,
    lossCostPerDay: price === null ? null : Math.round(lossLitresPerDay * price * 10) / 10_000,
  };
}
