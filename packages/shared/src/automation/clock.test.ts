import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_JUMP_TOLERANCE_MS, placeReading, type DeviceClock } from './clock.ts';

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const NEW: DeviceClock = { offsetMs: null, lastAt: null, lastSeq: null };

/**
 * A device reporting minute readings: reading i truly ends at T0 + i minutes (server time), is
 * dated by the device's clock (true end + skew(i)) and received after a delay.
 */
function stream(
  count: number,
  skewMs: (i: number) => number,
  delayMs: (i: number) => number,
  clock: DeviceClock = NEW,
) {
  const placed: { trueEnd: number; received: number; placed: number }[] = [];
  for (let i = 1; i <= count; i++) {
    const trueEnd = T0 + i * 60_000;
    const received = trueEnd + delayMs(i);
    const next = placeReading(clock, {
      seq: (clock.lastSeq ?? 0) + 1,
      at: new Date(trueEnd + skewMs(i)),
      intervalS: 60,
      receivedAt: new Date(received),
    });
    clock = next.clock;
    placed.push({ trueEnd, received, placed: next.placedAt.getTime() });
  }
  return { placed, clock };
}

const skews = fc.integer({ min: -35 * 86_400_000, max: 15 * 60_000 });
const delays = fc.array(fc.integer({ min: 5, max: 2000 }), { minLength: 60, maxLength: 60 });

describe('placing readings on the server time line', () => {
  it('never after their receipt, whatever the device clock says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(skews, fc.integer({ min: 0, max: 86_400_000 })), { maxLength: 50 }),
        (xs) => {
          let clock = NEW;
          xs.forEach(([skew, delay], i) => {
            const received = T0 + i * 60_000 + delay;
            const next = placeReading(clock, {
              seq: i + 1,
              at: new Date(T0 + i * 60_000 + skew),
              intervalS: 60,
              receivedAt: new Date(received),
            });
            expect(next.placedAt.getTime()).toBeLessThanOrEqual(received);
            clock = next.clock;
          });
        },
      ),
    );
  });

  it('live readings of a fast or slow clock land at their true end, within the network delay', () => {
    fc.assert(
      fc.property(skews, delays, (skew, delay) => {
        const { placed, clock } = stream(
          60,
          () => skew,
          (i) => delay[i - 1]!,
        );
        for (const p of placed.slice(1)) {
          expect(p.placed).toBeGreaterThanOrEqual(p.trueEnd);
          expect(p.placed).toBeLessThanOrEqual(p.received);
        }
        // The measured skew is the device's, within the smallest delay.
        expect(-clock.offsetMs!).toBeGreaterThanOrEqual(skew - 2000);
        expect(-clock.offsetMs!).toBeLessThanOrEqual(skew);
      }),
    );
  });

  it('a clock pulled back (or put forward) mid-stream does not move its readings off their true end', () => {
    fc.assert(
      fc.property(
        skews,
        fc.integer({ min: -15 * 60_000, max: 15 * 60_000 }),
        fc.integer({ min: 2, max: 30 }),
        (skew, jump, at) => {
          const { placed } = stream(
            40,
            (i) => (i < at ? skew : skew + jump),
            () => 50,
          );
          for (const p of placed.slice(1)) {
            expect(p.placed).toBeGreaterThanOrEqual(p.trueEnd - CLOCK_JUMP_TOLERANCE_MS);
            expect(p.placed).toBeLessThanOrEqual(p.received);
          }
        },
      ),
    );
  });

  it('a clock drifting slower by up to 1000 ppm keeps its live readings on time for a week', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (ppm) => {
        const { placed } = stream(
          7 * 1440,
          (i) => -Math.round(i * 60_000 * ppm * 1e-6),
          () => 100,
        );
        for (const p of placed.slice(1)) expect(p.placed).toBeGreaterThanOrEqual(p.trueEnd - 1000);
      }),
      { numRuns: 10 },
    );
  });

  it('a replayed offline buffer stays in the past: each reading near its true end, not at its receipt', () => {
    fc.assert(
      fc.property(skews, fc.integer({ min: 11, max: 10_080 }), (skew, outage) => {
        // Ten live minutes, then `outage` minutes buffered and replayed at once when it reconnects.
        const live = stream(
          10,
          () => skew,
          () => 80,
        );
        const back = T0 + (10 + outage) * 60_000 + 500;
        const { placed } = stream(
          outage,
          () => skew,
          (i) => back - (T0 + i * 60_000),
          live.clock,
        );
        placed.forEach((p, i) => {
          // Shifted like every live reading of that clock (the network delay), never to the receipt.
          const trueEnd = T0 + (10 + i + 1) * 60_000;
          expect(p.placed - trueEnd).toBeLessThanOrEqual(2000);
        });
      }),
      { numRuns: 50 },
    );
  });

  it('a straggler older than the newest reading leaves the clock as it was', () => {
    const { clock } = stream(
      3,
      () => 180_000,
      () => 50,
    );
    const old = placeReading(clock, {
      seq: 2,
      at: new Date(T0 + 2 * 60_000 + 180_000),
      intervalS: 60,
      receivedAt: new Date(T0 + 4 * 60_000),
    });
    expect(old.clock).toBe(clock);
    expect(old.placedAt.getTime()).toBe(T0 + 2 * 60_000 + 50);
  });
});
