import type { OpeningHours, Weekday } from '../api/buildings.ts';
import type { ZoneProfile } from '../api/zones.ts';
import type { Trigger } from './settings.ts';

/*
 * Detection of abnormal consumption (spec §4 automatic closing, DESIGN.md §5; docs/automation.md is
 * this file in prose). Pure: the server keeps the state in the database and calls `detect` for
 * each new reading inside the ingest transaction; the web and the tests use the same maths.
 */

/** A flow-free gap at least this long ends a continuous-flow event. */
export const FLOW_GAP_S = 120;
/** spec §9: abnormal-volume detection is blocked this long after a user exits automatic closing. */
export const EXIT_BLOCK_S = 3600;
/** Continuous flow this long (flowing seconds of one event) is a leak: a running toilet, a drip. */
export const LEAK_FLOW_S = 2 * 3600;
/**
 * A reading measured this long before the server's clock (a device replaying its offline buffer)
 * feeds the event but cannot close the water by itself: the flow may have stopped since. If the
 * event goes on, the first fresh reading of it triggers.
 */
export const STALE_READING_S = 600;
/** Outside opening hours, for the profiles that expect nobody then, margins are this fraction. */
export const OFF_HOURS_MARGIN_FACTOR = 0.5;
/**
 * Profiles whose water runs at any hour (people live or sleep there, or machines run): their
 * margins do not tighten outside opening hours.
 */
export const ROUND_THE_CLOCK_PROFILES: readonly ZoneProfile[] = [
  'housing',
  'hospitality',
  'healthcare',
  'industrial_process',
  'cooling',
  'irrigation',
];

/** One telemetry interval (docs/protocol.md), volume in whole millilitres. */
export type FlowReading = { measuredAt: Date; intervalS: number; volumeMl: number; flowS: number };

/** The margins in force for one reading, in millilitres and flowing seconds; null: not checked. */
export type Margins = { volumeMl: number | null; flowS: number | null };

export type DetectionState = {
  /** Start of the first flowing reading of the event under way; null: no event. */
  eventStartedAt: Date | null;
  /** End of the event's latest flowing reading. */
  lastFlowAt: Date | null;
  eventVolumeMl: number;
  /** Seconds during which water flowed in the event (the readings' `flow_s`). */
  eventFlowS: number;
  /** The event already went past a margin (closing or alert done once per event). */
  eventTriggered: boolean;
  /** The event already raised its leak alert. */
  eventLeakRaised: boolean;
  /** Latest reading end seen in the zone. */
  lastMeasuredAt: Date | null;
  /** spec §9: no abnormal-volume trigger before this time (server clock). */
  detectionBlockedUntil: Date | null;
};

export const EMPTY_DETECTION: DetectionState = {
  eventStartedAt: null,
  lastFlowAt: null,
  eventVolumeMl: 0,
  eventFlowS: 0,
  eventTriggered: false,
  eventLeakRaised: false,
  lastMeasuredAt: null,
  detectionBlockedUntil: null,
};

export type Verdict = {
  state: DetectionState;
  /** The margin this reading pushed the event past, once per event; null otherwise. */
  crossed: Trigger | null;
  /** The event became a leak (LEAK_FLOW_S of flow), once per event. */
  leak: boolean;
  /** Older than the zone's latest reading by more than a gap: not used for detection. */
  late: boolean;
};

/**
 * Feeds one reading to a zone's detection. A reading "flows" when it measured any volume or flow
 * time; a new event starts when the flow-free time since the last flowing reading's end is at
 * least FLOW_GAP_S (counted in whole readings: flow inside a reading is not placed in time).
 */
export function detect(state: DetectionState, reading: FlowReading, margins: Margins, now: Date): Verdict {
  const end = reading.measuredAt.getTime();
  if (state.lastMeasuredAt && end + FLOW_GAP_S * 1000 < state.lastMeasuredAt.getTime())
    return { state, crossed: null, leak: false, late: true };
  const lastMeasuredAt =
    state.lastMeasuredAt && state.lastMeasuredAt.getTime() > end ? state.lastMeasuredAt : reading.measuredAt;
  const flowing = reading.volumeMl > 0 || reading.flowS > 0;
  if (!flowing) {
    const ended = state.lastFlowAt !== null && end - state.lastFlowAt.getTime() >= FLOW_GAP_S * 1000;
    const next = ended ? endEvent(state) : state;
    return { state: { ...next, lastMeasuredAt }, crossed: null, leak: false, late: false };
  }
  const start = end - reading.intervalS * 1000;
  const continues = state.lastFlowAt !== null && start - state.lastFlowAt.getTime() < FLOW_GAP_S * 1000;
  const base = continues ? state : { ...endEvent(state), eventStartedAt: new Date(start) };
  const next: DetectionState = {
    ...base,
    lastFlowAt: base.lastFlowAt && base.lastFlowAt.getTime() > end ? base.lastFlowAt : reading.measuredAt,
    eventVolumeMl: base.eventVolumeMl + reading.volumeMl,
    eventFlowS: base.eventFlowS + reading.flowS,
    lastMeasuredAt,
  };
  let crossed: Trigger | null = null;
  const fresh = now.getTime() - end <= STALE_READING_S * 1000;
  const blocked = state.detectionBlockedUntil !== null && now < state.detectionBlockedUntil;
  if (!next.eventTriggered && fresh && !blocked) {
    crossed = marginCrossed(next, margins);
    if (crossed) next.eventTriggered = true;
  }
  const leak = !next.eventLeakRaised && next.eventFlowS >= LEAK_FLOW_S;
  if (leak) next.eventLeakRaised = true;
  return { state: next, crossed, leak, late: false };
}

/** spec §4: volume or duration past its margin (strictly: a margin is what may still flow). */
export function marginCrossed(
  event: Pick<DetectionState, 'eventVolumeMl' | 'eventFlowS'>,
  margins: Margins,
): Trigger | null {
  if (margins.volumeMl !== null && event.eventVolumeMl > margins.volumeMl) return 'volume';
  if (margins.flowS !== null && event.eventFlowS > margins.flowS) return 'duration';
  return null;
}

/** The state after a user exits automatic closing: no event, detection blocked for an hour. */
export function afterExit(state: DetectionState, now: Date): DetectionState {
  return { ...endEvent(state), detectionBlockedUntil: new Date(now.getTime() + EXIT_BLOCK_S * 1000) };
}

function endEvent(state: DetectionState): DetectionState {
  return {
    ...state,
    eventStartedAt: null,
    lastFlowAt: null,
    eventVolumeMl: 0,
    eventFlowS: 0,
    eventTriggered: false,
    eventLeakRaised: false,
  };
}

/**
 * The margins in force at a time: the zone's, halved outside its opening hours unless its profile
 * runs round the clock (docs/automation.md). No opening hours at all: always open.
 */
export function effectiveMargins(
  margins: Margins,
  zone: { profile: ZoneProfile; openingHours: OpeningHours | null; timezone: string },
  at: Date,
): Margins {
  if (ROUND_THE_CLOCK_PROFILES.includes(zone.profile) || !zone.openingHours) return margins;
  if (isWithinOpeningHours(zone.openingHours, zone.timezone, at)) return margins;
  const scale = (v: number | null) => (v === null ? null : Math.floor(v * OFF_HOURS_MARGIN_FACTOR));
  return { volumeMl: scale(margins.volumeMl), flowS: scale(margins.flowS) };
}

const WEEKDAY_OF: Record<string, Weekday> = {
  Mon: 'monday',
  Tue: 'tuesday',
  Wed: 'wednesday',
  Thu: 'thursday',
  Fri: 'friday',
  Sat: 'saturday',
  Sun: 'sunday',
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether a time falls in one of the day's open intervals, in the building's time zone. */
export function isWithinOpeningHours(hours: OpeningHours, timezone: string, at: Date): boolean {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timezone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const day = WEEKDAY_OF[parts.weekday ?? ''];
  if (!day) return true;
  const time = `${parts.hour}:${parts.minute}`;
  return (hours[day] ?? []).some((interval) => time >= interval.start && time < interval.end);
}
