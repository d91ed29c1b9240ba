/*
 * Device clocks (docs/automation.md "Device clocks", issue #20 item 1). A reading's `at` is the
 * device's clock, which may be fast, slow, or jump when SNTP corrects it; safety decisions must not
 * depend on it being right. Detection therefore places every reading on the SERVER's time line:
 *
 *   placed = min(receivedAt, max(at + offset (+ creep when live), previous placed end + interval − 1 s))
 *
 * where `offset` is the flowbox's measured clock offset (receipt time minus `at`), and after each
 * reading `offset` becomes `placed − at`. So:
 * - nothing is ever placed after its receipt: a reading dated ahead (a fast clock, a bad date)
 *   cannot be "later" than the server's now, and cannot make a neighbour's readings look late;
 * - the offset falls at once to the smallest receipt delay (a fast clock, or a slow one set right);
 * - a clock pulled back (SNTP) would make a reading overlap the one before: it is placed right
 *   after it instead, and the offset takes the jump in that one reading;
 * - a slow clock keeps its live readings on time: its offset is its lag, and a clock drifting
 *   slower is followed by a small creep (CLOCK_CREEP of each live reading's interval);
 * - a replayed offline buffer (received long after its `at`) keeps its device times moved by the
 *   offset: in the past, stale and late, as before; no creep, since it is not live.
 */

/** A device clock off by more than this (either way) raises a flowbox_internal_status alert. */
export const CLOCK_SKEW_ALERT_S = 120;
/** A reading received within this long of its placed end is live (not a replay): creep applies. */
export const CLOCK_LIVE_S = 60;
/** The offset may rise by this fraction of each live reading's interval: follows drifts up to 1000 ppm. */
export const CLOCK_CREEP = 0.001;
/** A reading ending this much less than its interval after the previous one is a clock pulled back. */
export const CLOCK_JUMP_TOLERANCE_MS = 1000;

/** What the server knows of a flowbox's clock (flowbox columns); nulls: no reading yet. */
export type DeviceClock = {
  /** Receipt minus `at`, ms, as last placed: negative when the device's clock is ahead. */
  offsetMs: number | null;
  /** `at` of the newest reading (by seq), device clock. */
  lastAt: Date | null;
  /** Sequence number of the newest reading. */
  lastSeq: number | null;
};

export type ClockReading = { seq: number; at: Date; intervalS: number; receivedAt: Date };

/**
 * Places one reading on the server's time line and answers the flowbox's clock after it. Readings
 * of one flowbox must be given in seq order; one not newer than the clock's newest (a redelivery,
 * or a straggler after a newer one) is placed by the clock as it is and leaves it unchanged.
 */
export function placeReading(
  clock: DeviceClock,
  reading: ClockReading,
): { placedAt: Date; clock: DeviceClock } {
  const at = reading.at.getTime();
  const received = reading.receivedAt.getTime();
  if (clock.lastSeq !== null && reading.seq <= clock.lastSeq)
    return { placedAt: new Date(Math.min(received, at + (clock.offsetMs ?? 0))), clock };
  let placed: number;
  if (clock.offsetMs === null || clock.lastAt === null) placed = received;
  else {
    let moved = at + clock.offsetMs;
    if (received - moved <= CLOCK_LIVE_S * 1000) moved += Math.round(reading.intervalS * 1000 * CLOCK_CREEP);
    const afterPrevious =
      clock.lastAt.getTime() + clock.offsetMs + reading.intervalS * 1000 - CLOCK_JUMP_TOLERANCE_MS;
    placed = Math.min(received, Math.max(moved, afterPrevious));
  }
  return {
    placedAt: new Date(placed),
    clock: { offsetMs: placed - at, lastAt: reading.at, lastSeq: reading.seq },
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
 * Places a batch's readings (each flowbox's in seq order): each one's placed end, and each
 * flowbox's clock after the batch.
 */
export function placeBatch(readings: readonly ClockedReading[]): {
  placedAt: Date[];
  clocks: Map<string, DeviceClock>;
} {
  const clocks = new Map<string, DeviceClock>();
  const placedAt = readings.map((reading) => {
    const next = placeReading(clocks.get(reading.flowboxId) ?? reading.clock, reading);
    clocks.set(reading.flowboxId, next.clock);
    return next.placedAt;
  });
  return { placedAt, clocks };
}
