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

/**
 * A reading seen past a hole in its flowbox's seqs (it overtook a reading through another
 * instance, or its predecessor was lost): held until the hole fills or HOLD_S pass. Instants in
 * ms; `heldAt` is the server's clock when it was held.
 */
export type HeldReading = {
  flowboxId: string;
  seq: number;
  placedAt: number;
  deviceAt: number;
  intervalS: number;
  volumeMl: number;
  flowS: number;
  live: boolean;
  heldAt: number;
};

/**
 * How long a reading past a hole waits for it (docs/automation.md "Whatever the delivery"): a
 * reading overtaken through another instance arrives within a batch or two; one lost in transit is
 * sent again after 30 s (docs/protocol.md). Past this the hole is taken as lost.
 */
export const HOLD_S = 40;
/** Readings held in one zone at most: past this its oldest hole is taken as lost at once. */
export const HELD_MAX = 64;
/** Flowboxes whose seqs a zone's detection remembers at most (moved flowboxes leave theirs). */
const SEQS_MAX = 256;

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
  /**
   * Each flowbox's last seq fed to detection with none missing before it (since detection first
   * saw the flowbox): detection takes a flowbox's readings in seq order.
   */
  seqs: Readonly<Record<string, number>>;
  /** Readings past a hole, waiting for it (oldest first). */
  held: readonly HeldReading[];
};

export const EMPTY_DETECTION: DetectionState = {
  eventStartedAt: null,
  lastFlowAt: null,
  lastFlowFlowboxId: null,
  lastFlowSeq: null,
  lastFlowDeviceAt: null,
  lastFlowLive: true,
  eventVolumeMl: 0,
  eventFlowS: 0,
  eventCrossing: null,
  eventTriggered: false,
  eventLeakRaised: false,
  lastMeasuredAt: null,
  detectionBlockedUntil: null,
  seqs: {},
  held: [],
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
  const nowMs = now.getTime();
  const seqs: Record<string, number> = { ...start.seqs };
  let held: HeldReading[] = start.held.length === 0 ? [] : [...start.held];
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
  /** One reading into the event, in its flowbox's seq order. */
  const feed = (reading: FlowReading): void => {
    const end = reading.measuredAt.getTime();
    if (state.lastMeasuredAt && end + FLOW_GAP_S * 1000 < state.lastMeasuredAt.getTime()) {
      late.push(reading);
      return;
    }
    const lastMeasuredAt =
      state.lastMeasuredAt && state.lastMeasuredAt.getTime() > end
        ? state.lastMeasuredAt
        : reading.measuredAt;
    const flowing = reading.volumeMl > 0 || reading.flowS > 0;
    if (!flowing) {
      state = { ...afterFlowFree(state, reading, endEvent), lastMeasuredAt };
      return;
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
  };
  /** The flowbox's held readings that now follow without a hole, fed in seq order. */
  const drain = (flowboxId: string): void => {
    for (let i = 0; held.length > 0 && i >= 0;) {
      const next = seqs[flowboxId]! + 1;
      i = held.findIndex((h) => h.flowboxId === flowboxId && h.seq === next);
      if (i < 0) break;
      const [h] = held.splice(i, 1);
      seqs[flowboxId] = next;
      feed(fromHeld(h!));
    }
  };
  /** The flowbox's holes taken as lost: its held readings fed in seq order. */
  const giveUp = (flowboxId: string): void => {
    const theirs = held.filter((h) => h.flowboxId === flowboxId).sort((a, b) => a.seq - b.seq);
    held = held.filter((h) => h.flowboxId !== flowboxId);
    for (const h of theirs) {
      seqs[flowboxId] = Math.max(seqs[flowboxId] ?? 0, h.seq);
      feed(fromHeld(h));
    }
  };
  // Holes waited for HOLD_S: taken as lost (a sweep calls this with no reading when none comes).
  for (const h of [...held]) if (h.heldAt + HOLD_S * 1000 <= nowMs && held.includes(h)) giveUp(h.flowboxId);
  for (const reading of readings) {
    const { flowboxId, seq } = reading;
    if (flowboxId === undefined || seq === undefined) {
      feed(reading);
      continue;
    }
    const last = seqs[flowboxId];
    if (last === undefined || seq === last + 1) {
      if (last === undefined) makeRoom(seqs);
      seqs[flowboxId] = seq;
      feed(reading);
      drain(flowboxId);
    } else if (seq <= last) {
      // After its hole was taken as lost, or from a counter that restarted (a re-paired device):
      // fed as it comes.
      feed(reading);
    } else {
      if (!held.some((h) => h.flowboxId === flowboxId && h.seq === seq)) held.push(toHeld(reading, nowMs));
      if (held.length > HELD_MAX) giveUp(held[0]!.flowboxId);
    }
  }
  state = { ...state, seqs, held };
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

const toHeld = (reading: FlowReading, heldAt: number): HeldReading => ({
  flowboxId: reading.flowboxId!,
  seq: reading.seq!,
  placedAt: reading.measuredAt.getTime(),
  deviceAt: (reading.deviceAt ?? reading.measuredAt).getTime(),
  intervalS: reading.intervalS,
  volumeMl: reading.volumeMl,
  flowS: reading.flowS,
  live: reading.live ?? true,
  heldAt,
});

const fromHeld = (h: HeldReading): FlowReading => ({
  measuredAt: new Date(h.placedAt),
  deviceAt: new Date(h.deviceAt),
  flowboxId: h.flowboxId,
  seq: h.seq,
  intervalS: h.intervalS,
  volumeMl: h.volumeMl,
  flowS: h.flowS,
  live: h.live,
});

/** Room for a flowbox new to the zone's detection: past SEQS_MAX the oldest remembered goes. */
function makeRoom(seqs: Record<string, number>): void {
  const known = Object.keys(seqs);
  if (known.length >= SEQS_MAX) delete seqs[known[0]!];
}

/**
 * When the zone's oldest held reading stops waiting for its hole (null: none held): detection
 * must run then even if no reading comes (the server's sweep, the backtest and the tests do).
 */
export function heldDueAt(state: DetectionState): Date | null {
  if (state.held.length === 0) return null;
  return new Date(Math.min(...state.held.map((h) => h.heldAt)) + HOLD_S * 1000);
}

/**
 * A flow-free reading: ends the event once the flow-free time since its last flowing reading reaches
 * FLOW_GAP_S. A flowbox's readings come in seq order (held past a hole), so its run of flow-free
 * readings after its last flowing one has no hole that a reading still on its way could fill.
 */
function afterFlowFree(
  state: DetectionState,
  reading: FlowReading,
  endEvent: (s: DetectionState) => DetectionState,
): DetectionState {
  if (state.lastFlowAt === null) return state;
  return flowFreeSince(state, reading) >= FLOW_GAP_S * 1000 ? endEvent(state) : state;
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
