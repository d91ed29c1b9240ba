/*
 * Device clocks (docs/automation.md "Device clocks", issues #20 and #29). A reading's `at` is the
 * device's clock, which may be fast, slow, or jump when SNTP corrects it; and a reading may arrive
 * long after its `at` (a buffer replayed after an outage, or at first contact). Safety decisions must
 * depend on neither, so detection places every reading on the SERVER's time line, and never takes
 * a delay for a skew:
 *
 * - A message that carries `sent_at` (the device's clock when it published it, docs/protocol.md)
 *   measures the offset by itself: offset = receipt − sent_at, whatever the reading's age. The
 *   reading is placed at `at + offset`: a backlog stays in its past, spaced as it was measured, and
 *   a first contact is placed as well as the hundredth. Such a placement is always `live`: its
 *   freshness is read from its placed time.
 * - A message without `sent_at` (an older device) can only bound the offset from above: receipt − at
 *   mixes the skew with the delay. The rule is then conservative: the flowbox's offset is the
 *   smallest receipt delay seen (with a creep for clocks drifting slower), a reading is never placed
 *   after its receipt, and a reading that had to be pulled to its receipt (the offset fell: what
 *   looked like skew was delay, so the stream was a backlog), or the first one of a flowbox, is not
 *   `live`: it feeds detection but never closes the water. The flowbox's next paced reading is.
 * - A clock pulled back (SNTP) would make a reading overlap the one before: it is placed right after
 *   it instead, and the offset takes the jump in that one reading.
 *
 * Detection judges gaps between one flowbox's readings on the device's own time line (delivery
 * cannot change it); the placed time says only whether a reading is fresh, which opening hours
 * apply, and how the readings of a zone's several flowboxes interleave.
 */

/** A device clock off by more than this (either way) raises a flowbox_internal_status alert. */
export const CLOCK_SKEW_ALERT_S = 120;
/** A reading received within this long of its placed end is live (not a replay): creep applies. */
export const CLOCK_LIVE_S = 60;
/** The offset may rise by this fraction of each live reading's interval: follows drifts up to 1000 ppm. */
export const CLOCK_CREEP = 0.001;
/** A reading ending this much less than its interval after the previous one is a clock pulled back. */
export const CLOCK_JUMP_TOLERANCE_MS = 1000;
/**
 * A reading without `sent_at` pulled to its receipt by more than this is a backlog, not a live
 * reading (network jitter and batching stay well within it).
 */
export const CLOCK_PULL_TOLERANCE_MS = 5000;

/**
 * A `sent_at` more than this after its reading's `at` is no delay the protocol allows (a week of
 * offline buffer, with margin: ingest's own bound on `at`): the message is placed as one without it.
 */
export const SENT_AT_MAX_AGE_MS = 35 * 86_400_000;

/** What the server knows of a flowbox's clock (flowbox columns); nulls: no reading yet. */
export type DeviceClock = {
  /** Receipt minus `at`, ms, as last placed: negative when the device's clock is ahead. */
  offsetMs: number | null;
  /** `at` of the newest reading (by seq), device clock. */
  lastAt: Date | null;
  /** Sequence number of the newest reading. */
  lastSeq: number | null;
};

export type ClockReading = {
  seq: number;
  at: Date;
  intervalS: number;
  receivedAt: Date;
  /** The device's clock when it published the message (`sent_at`); absent from older devices. */
  sentAt?: Date | null;
};

export type Placement = {
  placedAt: Date;
  /** The placement can be trusted as live: a fresh placed time means water measured now. */
  live: boolean;
  clock: DeviceClock;
};

/**
 * Places one reading on the server's time line and answers the flowbox's clock after it. Readings
 * of one flowbox must be given in seq order; one not newer than the clock's newest (a redelivery,
 * or a straggler after a newer one) is placed by its own `sent_at` or the clock as it is, and
 * leaves the clock unchanged.
 */
export function placeReading(clock: DeviceClock, reading: ClockReading): Placement {
  const at = reading.at.getTime();
  const received = reading.receivedAt.getTime();
  // A message's own measurement: it cannot have been sent before its reading ended.
  const sent = reading.sentAt?.getTime() ?? NaN;
  const measured =
    Number.isFinite(sent) && sent - at <= SENT_AT_MAX_AGE_MS ? received - Math.max(at, sent) : null;
  if (clock.lastSeq !== null && reading.seq <= clock.lastSeq) {
    const offset = measured ?? clock.offsetMs ?? received - at;
    return { placedAt: new Date(Math.min(received, at + offset)), live: true, clock };
  }
  const previousEnd =
    clock.offsetMs === null || clock.lastAt === null
      ? null
      : clock.lastAt.getTime() + clock.offsetMs + reading.intervalS * 1000 - CLOCK_JUMP_TOLERANCE_MS;
  let placed: number;
  let live = true;
  if (measured !== null) {
    placed = Math.min(received, Math.max(at + measured, previousEnd ?? -Infinity));
  } else if (clock.offsetMs === null || previousEnd === null) {
    placed = received;
    live = false;
  } else {
    let moved = at + clock.offsetMs;
    if (received - moved <= CLOCK_LIVE_S * 1000) moved += Math.round(reading.intervalS * 1000 * CLOCK_CREEP);
    placed = Math.min(received, Math.max(moved, previousEnd));
    // Pulled back by its offset: the offset was delay, not skew (a clock pulled back by SNTP only
    // pushes a reading against the one before, and stays live).
    live = moved - received <= CLOCK_PULL_TOLERANCE_MS;
  }
  return {
    placedAt: new Date(placed),
    live,
    clock: { offsetMs: measured ?? placed - at, lastAt: reading.at, lastSeq: reading.seq },
  };
}

/** The device's clock skew in ms (positive: ahead of the server), from its offset. */
export const clockSkewMs = (offsetMs: number): number => -offsetMs;

/** Whether a skew is beyond the alert bound. */
export const clockSkewAlarming = (offsetMs: number | null): boolean =>
  offsetMs !== null && Math.abs(offsetMs) > CLOCK_SKEW_ALERT_S * 1000;

/** A reading of a batch, with its flowbox and that flowbox's clock as stored before the batch. */
export type ClockedReading = ClockReading & { flowboxId: string; clock: DeviceClock };

/**
 * Places a batch's readings (each flowbox's in seq order): each one's placement, and each
 * flowbox's clock after the batch.
 */
export function placeBatch(readings: readonly ClockedReading[]): {
  placed: Placement[];
  clocks: Map<string, DeviceClock>;
} {
  const clocks = new Map<string, DeviceClock>();
  const placed = readings.map((reading) => {
    const next = placeReading(clocks.get(reading.flowboxId) ?? reading.clock, reading);
    clocks.set(reading.flowboxId, next.clock);
    return next;
  });
  return { placed, clocks };
}
