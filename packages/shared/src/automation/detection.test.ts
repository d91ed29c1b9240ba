import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterExit,
  detect,
  EMPTY_DETECTION,
  EXIT_BLOCK_S,
  FLOW_GAP_S,
  HELD_MAX,
  HOLD_S,
  detectBatch,
  heldDueAt,
  LEAK_FLOW_S,
  STALE_READING_S,
  effectiveMargins,
  isWithinOpeningHours,
  type DetectionState,
  type FlowReading,
  type Margins,
} from './detection.ts';
import { AutomaticClosingSettingsSchema, volumeMarginOutOfBounds } from './settings.ts';

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const minute = (i: number, litres: number, flowS = litres > 0 ? 60 : 0): FlowReading => ({
  measuredAt: new Date(T0 + (i + 1) * 60_000),
  intervalS: 60,
  volumeMl: Math.round(litres * 1000),
  flowS,
});

/** Runs a stream with the server's clock at each reading's end (live readings). */
function run(readings: FlowReading[], margins: Margins, start: DetectionState = EMPTY_DETECTION) {
  let state = start;
  const crossings: { index: number; trigger: string }[] = [];
  const leaks: number[] = [];
  readings.forEach((reading, index) => {
    const verdict = detect(state, reading, margins, reading.measuredAt);
    state = verdict.state;
    if (verdict.crossed) crossings.push({ index, trigger: verdict.crossed });
    if (verdict.leak) leaks.push(index);
  });
  return { state, crossings, leaks };
}

const margins: Margins = { volumeMl: 100_000, flowS: 30 * 60 };

describe('continuous-flow events', () => {
  it('a burst pipe crosses the volume margin at the reading that passes it, once', () => {
    const burst = Array.from({ length: 10 }, (_, i) => minute(i, 40));
    const { crossings } = run(burst, margins);
    expect(crossings).toEqual([{ index: 2, trigger: 'volume' }]);
  });

  it('a small flow running past the duration margin crosses it on duration', () => {
    const trickle = Array.from({ length: 40 }, (_, i) => minute(i, 0.6));
    expect(run(trickle, margins).crossings).toEqual([{ index: 30, trigger: 'duration' }]);
  });

  it('a flow-free gap of FLOW_GAP_S starts a new event; a shorter one does not', () => {
    const gap = FLOW_GAP_S / 60;
    const withGap = [
      minute(0, 60),
      ...Array.from({ length: gap }, (_, i) => minute(1 + i, 0)),
      minute(1 + gap, 60),
    ];
    expect(run(withGap, margins).crossings).toEqual([]);
    const shortGap = [minute(0, 60), minute(1, 0), minute(2, 60)];
    expect(run(shortGap, margins).crossings).toEqual([{ index: 2, trigger: 'volume' }]);
  });

  it('disabled margins never trigger, but hours of flow are a leak', () => {
    const toilet = Array.from({ length: LEAK_FLOW_S / 60 + 5 }, (_, i) => minute(i, 0.6));
    const result = run(toilet, { volumeMl: null, flowS: null });
    expect(result.crossings).toEqual([]);
    expect(result.leaks).toEqual([LEAK_FLOW_S / 60 - 1]);
  });

  it('a stale reading (an offline replay) feeds the event but the first live one triggers', () => {
    let state = EMPTY_DETECTION;
    const now = new Date(T0 + 3 * 3600_000);
    for (let i = 0; i < 5; i++) {
      const verdict = detect(state, minute(i, 40), margins, now);
      expect(verdict.crossed).toBeNull();
      state = verdict.state;
    }
    expect(state.eventVolumeMl).toBe(200_000);
    const live = detect(state, minute(5, 40), margins, new Date(T0 + 6 * 60_000 + STALE_READING_S * 1000));
    expect(live.crossed).toBe('volume');
  });

  it('a reading older than the zone latest by more than a gap is late and ignored', () => {
    const { state } = run([minute(0, 1), minute(10, 1)], margins);
    const verdict = detect(state, minute(2, 500), margins, new Date(T0 + 11 * 60_000));
    expect(verdict.late).toBe(true);
    expect(verdict.state).toEqual(state);
  });

  it('after exit nothing triggers for an hour, then a new event beyond the margins does', () => {
    const exitAt = new Date(T0);
    const blocked = afterExit(EMPTY_DETECTION, exitAt);
    const burst = Array.from({ length: 70 }, (_, i) => minute(i, 40));
    const { crossings } = run(burst, margins, blocked);
    // The event started during the hour: it triggers with the reading ending as the hour ends.
    expect(crossings).toEqual([{ index: EXIT_BLOCK_S / 60 - 1, trigger: 'volume' }]);
  });
});

describe("a flowbox's readings in seq order (a reading past a hole waits for it)", () => {
  // One flowbox's minute `i` as seq i + 1, on its own clock (a device's reading).
  const device = (i: number, litres: number, flowS = litres > 0 ? 60 : 0): FlowReading => ({
    ...minute(i, litres, flowS),
    flowboxId: 'fb',
    seq: i + 1,
    deviceAt: minute(i, 0).measuredAt,
  });
  const margins: Margins = { volumeMl: 50_000, flowS: 600 };
  // 4.5 L a minute: the duration margin (600 s) is past at the 11th minute (seq 11, 49.5 L), the
  // volume margin (50 L) at the 12th (seq 12, 54 L).
  const steady = Array.from({ length: 14 }, (_, i) => device(i, 4.5));
  const receipt = (r: FlowReading) => new Date(r.measuredAt.getTime() + 400);
  const feedAll = (batches: FlowReading[][], start: DetectionState = EMPTY_DETECTION) => {
    let state = start;
    const acted: { seq: number | null; trigger: string; at: number }[] = [];
    let now = 0;
    for (const batch of batches) {
      now = Math.max(now, ...batch.map((r) => receipt(r).getTime()));
      const verdict = detectBatch(state, batch, () => margins, new Date(now));
      state = verdict.state;
      if (verdict.crossing)
        acted.push({ seq: verdict.crossing.seq, trigger: verdict.crossing.trigger, at: now });
    }
    return { state, acted };
  };

  it('the later reading first (two instances): held, then fed after the one it overtook', () => {
    const live = feedAll(steady.map((r) => [r]));
    expect(live.acted).toEqual([{ seq: 11, trigger: 'duration', at: receipt(steady[10]!).getTime() }]);
    const swapped = steady.map((r) => [r]);
    [swapped[10], swapped[11]] = [swapped[11]!, swapped[10]!];
    const { state, acted } = feedAll(swapped);
    // Named as live; acted on when seq 11 arrives (after seq 12, on the server's clock).
    expect(acted).toEqual([{ seq: 11, trigger: 'duration', at: receipt(steady[11]!).getTime() }]);
    expect(state.held).toEqual([]);
    expect(state.seqs).toEqual({ fb: 14 });
  });

  it('a hole that never fills is taken as lost after HOLD_S: the sweep judges what waited', () => {
    // 20 L, then a minute lost (dropped by ingest, say), then 40 L: the volume margin (50 L) is
    // past at seq 3, and the device then falls silent.
    const first = detectBatch(EMPTY_DETECTION, [device(0, 20)], () => margins, receipt(device(0, 20)));
    const crossing = device(2, 40);
    const at = receipt(crossing);
    const held = detectBatch(first.state, [crossing], () => margins, at);
    expect(held.crossing).toBeNull();
    expect(held.state.held.map((h) => h.seq)).toEqual([3]);
    expect(heldDueAt(held.state)).toEqual(new Date(at.getTime() + HOLD_S * 1000));
    // Nothing is given up before its wait ends.
    const early = detectBatch(held.state, [], () => margins, new Date(at.getTime() + HOLD_S * 1000 - 1));
    expect(early.crossing).toBeNull();
    expect(early.state.held).toHaveLength(1);
    // The sweep at the due time: seq 3 is judged, its water fresh: acted on.
    const due = heldDueAt(held.state)!;
    const swept = detectBatch(held.state, [], () => margins, due);
    expect(swept.crossing).toMatchObject({ seq: 3, trigger: 'volume', volumeMl: 60_000 });
    expect(swept.state.held).toEqual([]);
    expect(swept.state.seqs).toEqual({ fb: 3 });
    // The lost minute, arriving after all, is fed as it comes (not held again).
    const lost = device(1, 5);
    const straggler = detectBatch(swept.state, [lost], () => margins, new Date(due.getTime() + 1000));
    expect(straggler.state.held).toEqual([]);
    expect(straggler.state.eventVolumeMl).toBe(65_000);
  });

  it('the next reading past the wait releases what was held, without a sweep', () => {
    const first = detectBatch(EMPTY_DETECTION, [device(0, 20)], () => margins, receipt(device(0, 20)));
    const held = detectBatch(first.state, [device(2, 40)], () => margins, receipt(device(2, 40)));
    const next = detectBatch(held.state, [device(3, 1)], () => margins, receipt(device(3, 1)));
    expect(next.crossing).toMatchObject({ seq: 3, trigger: 'volume' });
    expect(next.state.held).toEqual([]);
    expect(next.state.seqs).toEqual({ fb: 4 });
  });

  it(`holds at most HELD_MAX readings: past them the oldest hole is taken as lost`, () => {
    const many = Array.from({ length: HELD_MAX + 3 }, (_, i) => device(i, 0));
    const first = detectBatch(EMPTY_DETECTION, [many[0]!], () => margins, receipt(many[0]!));
    // Seq 2 never comes; the rest arrive in one burst (a replay).
    const rest = many.slice(2);
    const verdict = detectBatch(first.state, rest, () => margins, receipt(rest.at(-1)!));
    expect(verdict.state.held.length).toBeLessThanOrEqual(HELD_MAX);
    expect(verdict.state.seqs.fb).toBeGreaterThan(1);
  });

  it("one flowbox's hole never holds another flowbox's readings", () => {
    const other = (r: FlowReading): FlowReading => ({ ...r, flowboxId: 'other' });
    const before = feedAll(steady.slice(0, 9).map((r) => [r, other({ ...r, volumeMl: 0, flowS: 0 })]));
    const verdict = detectBatch(
      before.state,
      [steady[10]!, other(steady[9]!)],
      () => margins,
      receipt(steady[10]!),
    );
    expect(verdict.state.held.map((h) => [h.flowboxId, h.seq])).toEqual([['fb', 11]]);
    expect(verdict.state.seqs.other).toBe(10);
  });
});

describe('properties', () => {
  /** Streams of minute readings: runs of flow separated by flow-free gaps. */
  const stream = fc.array(
    fc.record({
      flowMinutes: fc.integer({ min: 1, max: 30 }),
      litresPerMinute: fc.double({ min: 0.01, max: 50, noNaN: true }),
      gapMinutes: fc.integer({ min: FLOW_GAP_S / 60, max: 10 }),
    }),
    { minLength: 1, maxLength: 12 },
  );
  const build = (runs: { flowMinutes: number; litresPerMinute: number; gapMinutes: number }[]) => {
    const readings: FlowReading[] = [];
    const events: { volumeMl: number; flowS: number; lastIndex: number }[] = [];
    for (const r of runs) {
      let volumeMl = 0;
      for (let i = 0; i < r.flowMinutes; i++) {
        const reading = minute(readings.length, r.litresPerMinute);
        volumeMl += reading.volumeMl;
        readings.push(reading);
      }
      events.push({ volumeMl, flowS: r.flowMinutes * 60, lastIndex: readings.length - 1 });
      for (let i = 0; i < r.gapMinutes; i++) readings.push(minute(readings.length, 0));
    }
    return { readings, events };
  };
  const marginsArb = fc.record({
    volumeMl: fc.option(fc.integer({ min: 10_000, max: 2_000_000 }), { nil: null }),
    flowS: fc.option(fc.integer({ min: 5 * 60, max: 40 * 60 }), { nil: null }),
  });

  it('no closing while every continuous-flow event stays within the margins', () => {
    fc.assert(
      fc.property(stream, marginsArb, (runs, m) => {
        const { readings, events } = build(runs);
        const within = events.every(
          (e) =>
            (m.volumeMl === null || e.volumeMl <= m.volumeMl) && (m.flowS === null || e.flowS <= m.flowS),
        );
        fc.pre(within);
        expect(run(readings, m).crossings).toEqual([]);
      }),
    );
  });

  it('exactly one closing for each event beyond a margin, at or before its last reading', () => {
    fc.assert(
      fc.property(stream, marginsArb, (runs, m) => {
        const { readings, events } = build(runs);
        const beyond = events.filter(
          (e) => (m.volumeMl !== null && e.volumeMl > m.volumeMl) || (m.flowS !== null && e.flowS > m.flowS),
        );
        const { crossings } = run(readings, m);
        expect(crossings).toHaveLength(beyond.length);
        let first = 0;
        for (const e of events) {
          const inEvent = crossings.filter((c) => c.index >= first && c.index <= e.lastIndex);
          expect(inEvent).toHaveLength(beyond.includes(e) ? 1 : 0);
          first = e.lastIndex + 1;
        }
      }),
    );
  });

  it('nothing from abnormal volume during the hour after exit', () => {
    fc.assert(
      fc.property(stream, marginsArb, fc.integer({ min: 0, max: 120 }), (runs, m, exitMinute) => {
        const { readings } = build(runs);
        const exitAt = new Date(T0 + exitMinute * 60_000);
        const { crossings } = run(
          readings.filter((r) => r.measuredAt > exitAt),
          m,
          afterExit(EMPTY_DETECTION, exitAt),
        );
        const kept = readings.filter((r) => r.measuredAt > exitAt);
        for (const c of crossings)
          expect(kept[c.index]!.measuredAt.getTime()).toBeGreaterThanOrEqual(
            exitAt.getTime() + EXIT_BLOCK_S * 1000,
          );
      }),
    );
  });
});

describe('profile and opening hours', () => {
  const hours = {
    monday: [{ start: '08:00', end: '18:00' }],
    tuesday: [],
    wednesday: [],
    thursday: [],
    friday: [],
    saturday: [],
    sunday: [],
  };
  it('reads opening hours in the building time zone', () => {
    // 2026-03-02 is a Monday; 07:30 UTC is 08:30 in Paris (UTC+1).
    expect(isWithinOpeningHours(hours, 'Europe/Paris', new Date('2026-03-02T07:30:00Z'))).toBe(true);
    expect(isWithinOpeningHours(hours, 'UTC', new Date('2026-03-02T07:30:00Z'))).toBe(false);
    expect(isWithinOpeningHours(hours, 'Europe/Paris', new Date('2026-03-03T10:00:00Z'))).toBe(false);
  });
  it('halves margins outside opening hours, except for round-the-clock profiles', () => {
    const night = new Date('2026-03-02T23:00:00Z');
    expect(
      effectiveMargins(margins, { profile: 'office', openingHours: hours, timezone: 'UTC' }, night),
    ).toEqual({
      volumeMl: 50_000,
      flowS: 900,
    });
    expect(
      effectiveMargins(margins, { profile: 'housing', openingHours: hours, timezone: 'UTC' }, night),
    ).toEqual(margins);
    expect(
      effectiveMargins(margins, { profile: 'office', openingHours: null, timezone: 'UTC' }, night),
    ).toEqual(margins);
  });
});

describe('settings', () => {
  const base = {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 150,
    duration_margin_enabled: false,
    duration_margin_minutes: null,
  };
  it('accepts one enabled margin and refuses none', () => {
    expect(AutomaticClosingSettingsSchema.safeParse(base).success).toBe(true);
    const none = AutomaticClosingSettingsSchema.safeParse({ ...base, volume_margin_enabled: false });
    expect(none.error?.issues.map((i) => i.message)).toEqual(['validation.margin_required']);
  });
  it('needs a value for an enabled margin and keeps durations within 5 to 1440 minutes', () => {
    const missing = AutomaticClosingSettingsSchema.safeParse({ ...base, volume_margin: null });
    expect(missing.error?.issues[0]?.path).toEqual(['volume_margin']);
    for (const minutes of [4, 1441, 7.5])
      expect(
        AutomaticClosingSettingsSchema.safeParse({
          ...base,
          duration_margin_enabled: true,
          duration_margin_minutes: minutes,
        }).success,
      ).toBe(false);
  });
  it('bounds the volume margin in each unit', () => {
    expect(volumeMarginOutOfBounds(9, 'liter')).toEqual({ min: 10, max: 100_000 });
    expect(volumeMarginOutOfBounds(0.5, 'm3')).toBeNull();
    expect(volumeMarginOutOfBounds(30_000, 'gallon')).not.toBeNull();
  });
});
