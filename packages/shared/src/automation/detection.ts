import type { Trigger } from './settings.ts';
import { type OpeningHours, type Weekday } from '../domain/buildings.ts';
import { type ZoneProfile } from '../domain/zones.ts';

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

/**
 * One telemetry interval (docs/protocol.md), volume in whole millilitres. `measuredAt` is its end on
 * the server's time line (placed, clock.ts). The flowbox, its seq and its end by the device's clock
 * let detection judge the gaps between one flowbox's readings as the device measured them, whatever
 * the delivery; without them (a single stream in tests) the placed times are used.
 */
export type FlowReading = {
  measuredAt: Date;
  intervalS: number;
  volumeMl: number;
  flowS: number;
  flowboxId?: string;
  seq?: number;
  /** End of the interval by the device's clock. */
  deviceAt?: Date;
  /** The placement can be trusted as live (clock.ts `Placement.live`); absent: true. */
  live?: boolean;
};

/** A flow-free reading of the flowbox that flowed last, seen past a hole: its seq and end (device ms). */
export type FlowFreeReading = { seq: number; at: number };

/** The margins in force for one reading, in millilitres and flowing seconds; null: not checked. */
export type Margins = { volumeMl: number | null; flowS: number | null };

/** How an event went past a margin: at the reading that pushed it past, as things stood then. */
export type Crossing = {
  trigger: Trigger;
  /** Placed end of the reading that crossed. */
  at: Date;
  flowboxId: string | null;
  /** That reading's seq (null: not known, a test's bare stream). */
  seq: number | null;
  /** The event's start, volume and flow time at that reading. */
  eventStartedAt: Date | null;
  volumeMl: number;
  flowS: number;
  /** The margins in force for that reading (off-hours margins are smaller). */
  margins: Margins;
};

/** An event's flow time reached LEAK_FLOW_S: at that reading, as things stood then. */
export type Leak = Omit<Crossing, 'trigger' | 'margins'>;

export type DetectionState = {
  /** Start of the first flowing reading of the event under way; null: no event. */
  eventStartedAt: Date | null;
  /** End of the event's latest flowing reading (placed). */
  lastFlowAt: Date | null;
  /** The flowbox of that reading, its seq and its end by the device's clock. */
  lastFlowFlowboxId: string | null;
  lastFlowSeq: number | null;
  /**
   * That flowbox's readings after it were seen flow-free, without a hole, up to this seq: only
   * such a run ends the event (a reading still on its way, through another instance, may flow).
   */
  lastFlowFreeSeq: number | null;
  /**
   * That flowbox's flow-free readings seen past a hole in that run (they overtook a reading through
   * another instance): joined to the run once the hole fills. Device time of their ends, ms.
   */
  flowFreeAhead: FlowFreeReading[];
  lastFlowDeviceAt: Date | null;
  /** That reading's placement was live (a legacy backlog's is not: it cannot close). */
  lastFlowLive: boolean;
  eventVolumeMl: number;
  /** Seconds during which water flowed in the event (the readings' `flow_s`). */
  eventFlowS: number;
  /** The event went past a margin (once per event), whether or not it could be acted on yet. */
  eventCrossing: Crossing | null;
  /** The crossing was acted on while the water ran (closing or alert, once per event). */
  eventTriggered: boolean;
  /** The event already raised its leak alert. */
  eventLeakRaised: boolean;
  /** Latest reading end seen in the zone (placed). */
  lastMeasuredAt: Date | null;
  /** spec §9: no abnormal-volume trigger for readings placed before this time (server clock). */
  detectionBlockedUntil: Date | null;
};

export const EMPTY_DETECTION: DetectionState = {
  eventStartedAt: null,
  lastFlowAt: null,
  lastFlowFlowboxId: null,
  lastFlowSeq: null,
  lastFlowFreeSeq: null,
  flowFreeAhead: [],
  lastFlowDeviceAt: null,
  lastFlowLive: true,
  eventVolumeMl: 0,
  eventFlowS: 0,
  eventCrossing: null,
  eventTriggered: false,
  eventLeakRaised: false,
  lastMeasuredAt: null,
  detectionBlockedUntil: null,
};

/** What one reading, or one batch, decided. */
export type Verdict = {
  state: DetectionState;
  /**
   * The event under way crossed a margin and its water is running now: act (close, or alert),
   * once per event. Null otherwise.
   */
  crossed: Trigger | null;
  /** How it crossed, when `crossed` (or `past`) is set. */
  crossing: Crossing | null;
  /**
   * Events that crossed a margin but ended before their water was measured running now (a backlog
   * that arrived after the flow stopped): an alert about the past, never a closing.
   */
  past: PastCrossing[];
  /** The event became a leak (LEAK_FLOW_S of flow), once per event. */
  leak: boolean;
  /** Each event that became a leak in the batch (a backlog may hold several). */
  leaks: Leak[];
  /** Older than the zone's latest reading by more than a gap: not used for detection. */
  late: boolean;
};

/** An event that crossed a margin and ended without the crossing acted on. */
export type PastCrossing = Crossing & {
  /** End of the event's last flowing reading (placed). */
  endedAt: Date | null;
  /** The event's whole volume and flow time, as it ended. */
  eventVolumeMl: number;
  eventFlowS: number;
};

/**
 * Feeds one reading to a zone's detection: `detectBatch` of one reading. Readings of a batch must
 * go through `detectBatch` together: whether the water still runs is judged at the batch's end.
 */
export function detect(state: DetectionState, reading: FlowReading, margins: Margins, now: Date): Verdict {
  const verdict = detectBatch(state, [reading], () => margins, now);
  return { ...verdict, late: verdict.late.length > 0 };
}

/**
 * Feeds a zone's readings of one batch (in placed order) to its detection, and says what to do.
 *
 * A reading "flows" when it measured any volume or flow time; a new event starts when the
 * flow-free time since the last flowing reading's end is at least FLOW_GAP_S. Between two readings
 * of one flowbox that time is read on the device's own clock (consecutive seqs are contiguous
 * whatever the clock did), so that no delivery (live, backlog, batches, redelivery) can join or
 * split events; between two flowboxes of a zone, on the placed time line.
 *
 * An event's crossing is noted at the reading that pushes it past a margin, whenever that reading
 * arrives. It is acted on (`crossed`) only at the batch's end, and only while the event is still
 * under way and its latest flowing reading is fresh and live: water running now. An event that
 * crossed and ended before that is reported as `past`, never closed.
 */
export function detectBatch(
  start: DetectionState,
  readings: readonly FlowReading[],
  marginsAt: (reading: FlowReading) => Margins,
  now: Date,
): Omit<Verdict, 'late'> & { late: FlowReading[] } {
  let state = start;
  const past: PastCrossing[] = [];
  const late: FlowReading[] = [];
  const leaks: Leak[] = [];
  const endEvent = (s: DetectionState): DetectionState => {
    if (s.eventCrossing && !s.eventTriggered)
      past.push({
        ...s.eventCrossing,
        endedAt: s.lastFlowAt,
        eventVolumeMl: s.eventVolumeMl,
        eventFlowS: s.eventFlowS,
      });
    return withoutEvent(s);
  };
  for (const reading of readings) {
    const end = reading.measuredAt.getTime();
    if (state.lastMeasuredAt && end + FLOW_GAP_S * 1000 < state.lastMeasuredAt.getTime()) {
      late.push(reading);
      continue;
    }
    const lastMeasuredAt =
      state.lastMeasuredAt && state.lastMeasuredAt.getTime() > end
        ? state.lastMeasuredAt
        : reading.measuredAt;
    const flowing = reading.volumeMl > 0 || reading.flowS > 0;
    if (!flowing) {
      state = { ...afterFlowFree(state, reading, endEvent), lastMeasuredAt };
      continue;
    }
    const continues =
      state.lastFlowAt !== null &&
      flowFreeSince(state, reading) - reading.intervalS * 1000 < FLOW_GAP_S * 1000;
    const base = continues
      ? state
      : { ...endEvent(state), eventStartedAt: new Date(end - reading.intervalS * 1000) };
    const newer = !base.lastFlowAt || base.lastFlowAt.getTime() <= end;
    // One new state a reading (this runs for every reading of a batch: no object spread twice).
    const next: DetectionState = {
      ...base,
      eventVolumeMl: base.eventVolumeMl + reading.volumeMl,
      eventFlowS: base.eventFlowS + reading.flowS,
      lastMeasuredAt,
    };
    if (newer) {
      next.lastFlowAt = reading.measuredAt;
      next.lastFlowFlowboxId = reading.flowboxId ?? null;
      next.lastFlowSeq = reading.seq ?? null;
      next.lastFlowFreeSeq = reading.seq ?? null;
      next.flowFreeAhead =
        reading.seq === undefined || reading.flowboxId !== base.lastFlowFlowboxId
          ? NONE_AHEAD
          : base.flowFreeAhead.length === 0
            ? base.flowFreeAhead
            : base.flowFreeAhead.filter((r) => r.seq > reading.seq!);
      next.lastFlowDeviceAt = reading.deviceAt ?? reading.measuredAt;
      next.lastFlowLive = reading.live ?? true;
    }
    const blocked = next.detectionBlockedUntil !== null && reading.measuredAt < next.detectionBlockedUntil;
    if (!next.eventCrossing && !blocked) {
      const margins = marginsAt(reading);
      const trigger = marginCrossed(next, margins);
      if (trigger) next.eventCrossing = { trigger, ...leakAt(reading, next), margins };
    }
    if (!next.eventLeakRaised && next.eventFlowS >= LEAK_FLOW_S) {
      next.eventLeakRaised = true;
      leaks.push(leakAt(reading, next));
    }
    state = next;
  }
  // At the batch's end: is the crossed event's water running now?
  let crossed: Trigger | null = null;
  let crossing: Crossing | null = null;
  const running =
    state.lastFlowAt !== null &&
    state.lastFlowLive &&
    now.getTime() - state.lastFlowAt.getTime() <= STALE_READING_S * 1000;
  if (state.eventCrossing && !state.eventTriggered && running) {
    crossed = state.eventCrossing.trigger;
    crossing = state.eventCrossing;
    state = { ...state, eventTriggered: true };
  }
  return { state, crossed, crossing, past, leak: leaks.length > 0, leaks, late };
}

/** The event as a reading leaves it (a leak, or a crossing's figures). */
const leakAt = (reading: FlowReading, next: DetectionState): Leak => ({
  at: reading.measuredAt,
  flowboxId: reading.flowboxId ?? null,
  seq: reading.seq ?? null,
  eventStartedAt: next.eventStartedAt,
  volumeMl: next.eventVolumeMl,
  flowS: next.eventFlowS,
});

/**
 * No flow-free reading waiting past a hole: one empty list shared by the states that have none
 * (states are never changed in place, so sharing it is safe; it is frozen to keep it so).
 */
const NONE_AHEAD: FlowFreeReading[] = Object.freeze([]) as unknown as FlowFreeReading[];

/** Flow-free readings seen past a hole, at most: older ones are forgotten (the hole never filled). */
const FLOW_FREE_AHEAD_MAX = 32;

/**
 * A flow-free reading: ends the event once the flow-free time since its last flowing reading reaches
 * FLOW_GAP_S. For the flowbox that flowed last, only an unbroken run of its flow-free readings after
 * that reading counts (a reading still on its way, through another instance, may flow): one past a
 * hole waits in `flowFreeAhead` until the hole fills. Another flowbox's is judged on placed time.
 */
function afterFlowFree(
  state: DetectionState,
  reading: FlowReading,
  endEvent: (s: DetectionState) => DetectionState,
): DetectionState {
  if (state.lastFlowAt === null) return state;
  const sameFlowbox =
    reading.flowboxId !== undefined &&
    reading.flowboxId === state.lastFlowFlowboxId &&
    reading.seq !== undefined &&
    reading.deviceAt !== undefined &&
    state.lastFlowSeq !== null &&
    state.lastFlowDeviceAt !== null;
  if (!sameFlowbox) return flowFreeSince(state, reading) >= FLOW_GAP_S * 1000 ? endEvent(state) : state;
  const seq = reading.seq!;
  const after = state.lastFlowFreeSeq ?? state.lastFlowSeq!;
  if (seq <= after) return state;
  const seen = { seq, at: reading.deviceAt!.getTime() };
  if (seq > after + 1)
    return {
      ...state,
      flowFreeAhead: [...state.flowFreeAhead.filter((r) => r.seq !== seq), seen]
        .sort((x, y) => x.seq - y.seq)
        .slice(-FLOW_FREE_AHEAD_MAX),
    };
  // The next of the run: it, and the readings waiting past it, extend the run.
  let end = seen;
  const ahead = state.flowFreeAhead.filter((r) => r.seq > seq);
  while (ahead[0]?.seq === end.seq + 1) end = ahead.shift()!;
  const since = end.at - state.lastFlowDeviceAt!.getTime();
  const elapsed = end.seq === state.lastFlowSeq! + 1 ? Math.min(reading.intervalS * 1000, since) : since;
  if (elapsed >= FLOW_GAP_S * 1000) return endEvent(state);
  return { ...state, lastFlowFreeSeq: end.seq, flowFreeAhead: ahead };
}

/**
 * Flow-free time from the end of the zone's last flowing reading to the end of `reading`: on the
 * device's clock when both are the same flowbox's (a next seq follows at once, whatever the clock
 * did), else on the placed time line.
 */
function flowFreeSince(state: DetectionState, reading: FlowReading): number {
  const sameFlowbox =
    reading.flowboxId !== undefined &&
    reading.flowboxId === state.lastFlowFlowboxId &&
    reading.deviceAt !== undefined &&
    state.lastFlowDeviceAt !== null;
  if (!sameFlowbox) return reading.measuredAt.getTime() - state.lastFlowAt!.getTime();
  if (reading.seq !== undefined && state.lastFlowSeq !== null && reading.seq === state.lastFlowSeq + 1)
    return Math.min(
      reading.intervalS * 1000,
      reading.deviceAt!.getTime() - state.lastFlowDeviceAt!.getTime(),
    );
  return reading.deviceAt!.getTime() - state.lastFlowDeviceAt!.getTime();
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
  return { ...withoutEvent(state), detectionBlockedUntil: new Date(now.getTime() + EXIT_BLOCK_S * 1000) };
}

function withoutEvent(state: DetectionState): DetectionState {
  return {
    ...state,
    eventStartedAt: null,
    lastFlowAt: null,
    lastFlowFlowboxId: null,
    lastFlowSeq: null,
    lastFlowFreeSeq: null,
    flowFreeAhead: [],
    lastFlowDeviceAt: null,
    lastFlowLive: true,
    eventVolumeMl: 0,
    eventFlowS: 0,
    eventCrossing: null,
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

/** A crossing as a row keeps it (JSON: instants as ISO strings). */
export type StoredCrossing = Omit<Crossing, 'at' | 'eventStartedAt'> & {
  at: string;
  eventStartedAt: string | null;
};

export const crossingToJson = (c: Crossing): StoredCrossing => ({
  ...c,
  at: c.at.toISOString(),
  eventStartedAt: c.eventStartedAt?.toISOString() ?? null,
});

export const crossingFromJson = (c: StoredCrossing): Crossing => ({
  ...c,
  at: new Date(c.at),
  eventStartedAt: c.eventStartedAt === null ? null : new Date(c.eventStartedAt),
});
