import fc from 'fast-check';
import { placeBatch, type DeviceClock } from './clock.ts';
import {
  FLOW_GAP_S,
  detectBatch,
  heldDueAt,
  EMPTY_DETECTION,
  type DetectionState,
  type FlowReading,
  type Margins,
} from './detection.ts';
import type { Trigger } from './settings.ts';

/*
 * Generated water use and generated deliveries (issue #29, docs/automation.md "Whatever the
 * delivery"): the same water, measured by the same device, reaching the server live, as a backlog
 * at first contact, replayed after an outage, redelivered, in batches of any size. The pure tests
 * run them through `placeBatch` and `detectBatch` as the telemetry writer and detection do; the
 * server's tests run them through the real ingest.
 */

/** What the water did during a stretch of minutes. */
export type Segment =
  | { kind: 'idle'; minutes: number }
  /** A tap, a flush, a shower: a few minutes at a few litres a minute. */
  | { kind: 'use'; minutes: number; lpm: number }
  /** A drip or a running toilet: little water, every minute, for hours. */
  | { kind: 'drip'; minutes: number; lpm: number; flowS: number }
  /** A burst pipe. */
  | { kind: 'burst'; minutes: number; lpm: number };

export const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('idle' as const), minutes: fc.integer({ min: 1, max: 90 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('use' as const),
      minutes: fc.integer({ min: 1, max: 6 }),
      lpm: fc.integer({ min: 1, max: 12 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('drip' as const),
      minutes: fc.integer({ min: 20, max: 200 }),
      lpm: fc.constantFrom(0.02, 0.1, 0.4),
      flowS: fc.integer({ min: 5, max: 60 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      minutes: fc.integer({ min: 1, max: 12 }),
      lpm: fc.integer({ min: 15, max: 60 }),
    }),
  },
);

/** Water use of up to about a day, starting and ending with a quiet stretch. */
export const waterUseArb = fc.array(segmentArb, { minLength: 1, maxLength: 24 });

/** One minute reading as the device measured it. */
export type DeviceReading = {
  seq: number;
  /** True end of the interval (the server's clock). */
  trueEnd: number;
  /** End of the interval by the device's clock. */
  at: number;
  intervalS: number;
  volumeMl: number;
  flowS: number;
};

/** The device's clock: its skew, and optionally one jump (SNTP) before a given minute. */
export type DeviceClockModel = { skewMs: number; jump?: { atMinute: number; byMs: number } };

/** The minute readings of some water use, from `start` (server clock), with the device's clock. */
export function measure(
  segments: readonly Segment[],
  start: number,
  clock: DeviceClockModel,
): DeviceReading[] {
  const minutes: { volumeMl: number; flowS: number }[] = [{ volumeMl: 0, flowS: 0 }];
  for (const s of segments)
    for (let i = 0; i < s.minutes; i++)
      minutes.push(
        s.kind === 'idle'
          ? { volumeMl: 0, flowS: 0 }
          : { volumeMl: Math.round(s.lpm * 1000), flowS: s.kind === 'drip' ? s.flowS : 60 },
      );
  minutes.push({ volumeMl: 0, flowS: 0 }, { volumeMl: 0, flowS: 0 }, { volumeMl: 0, flowS: 0 });
  return minutes.map((m, i) => {
    const trueEnd = start + (i + 1) * 60_000;
    const jumped = clock.jump && i >= clock.jump.atMinute ? clock.jump.byMs : 0;
    return { seq: i + 1, trueEnd, at: trueEnd + clock.skewMs + jumped, intervalS: 60, ...m };
  });
}

/** A device's clock at a true time (the jump applied from its minute on). */
function deviceTime(clock: DeviceClockModel, readings: readonly DeviceReading[], trueTime: number): number {
  const first = readings[0]!.trueEnd - 60_000;
  const minute = Math.floor((trueTime - first) / 60_000);
  const jumped = clock.jump && minute >= clock.jump.atMinute ? clock.jump.byMs : 0;
  return trueTime + clock.skewMs + jumped;
}

/** One message as the server receives it. */
export type Delivered = { reading: DeviceReading; receivedAt: number; sentAt: number | null };

/** How the readings reach the server. */
export type DeliveryPlan =
  /** Each reading published when measured. */
  | { kind: 'live' }
  /** Offline from the start: the first contact, after `minutes`, is the backlog. */
  | { kind: 'first_contact'; minutes: number; batch: number }
  /** Online, then offline from `from` for `minutes` (at most the buffer's week), then replayed. */
  | { kind: 'outage'; from: number; minutes: number; batch: number }
  /** Live, and some readings delivered a second time, `afterMs` later. */
  | { kind: 'redelivered'; every: number; afterMs: number }
  /**
   * Live, through two server instances: every `every`-th reading's batch commits just after the
   * next reading's (shared subscription, two writers).
   */
  | { kind: 'two_instances'; every: number };

export const deliveryArb = (length: number): fc.Arbitrary<DeliveryPlan> =>
  fc.oneof(
    fc.constant({ kind: 'live' as const }),
    fc.record({
      kind: fc.constant('first_contact' as const),
      minutes: fc.integer({ min: 1, max: length }),
      batch: fc.integer({ min: 1, max: 200 }),
    }),
    fc.record({
      kind: fc.constant('outage' as const),
      from: fc.integer({ min: 0, max: length }),
      minutes: fc.integer({ min: 1, max: length }),
      batch: fc.integer({ min: 1, max: 200 }),
    }),
    fc.record({ kind: fc.constant('two_instances' as const), every: fc.integer({ min: 1, max: 10 }) }),
    fc.record({
      kind: fc.constant('redelivered' as const),
      every: fc.integer({ min: 2, max: 20 }),
      afterMs: fc.integer({ min: 100, max: 45_000 }),
    }),
  );

/**
 * The batches the server processes, in order, for readings delivered by a plan. `delayMs` is the
 * network's delay of each message; a backlog's messages leave 5 ms apart; `withSentAt: false` is an
 * older device whose messages carry no `sent_at`.
 */
export function deliver(
  readings: readonly DeviceReading[],
  plan: DeliveryPlan,
  clock: DeviceClockModel,
  options: { delayMs: number; withSentAt: boolean },
): Delivered[][] {
  const send = (reading: DeviceReading, sentTrue: number): Delivered => ({
    reading,
    receivedAt: sentTrue + options.delayMs,
    sentAt: options.withSentAt ? deviceTime(clock, readings, sentTrue) : null,
  });
  const live = (r: DeviceReading) => [send(r, r.trueEnd)];
  const backlog = (held: readonly DeviceReading[], at: number, size: number) => {
    const batches: Delivered[][] = [];
    held.forEach((r, i) => {
      if (i % size === 0) batches.push([]);
      batches.at(-1)!.push(send(r, at + i * 5));
    });
    return batches;
  };
  const first = readings[0]!.trueEnd - 60_000;
  switch (plan.kind) {
    case 'live':
      return readings.map(live);
    case 'first_contact': {
      const held = readings.filter((r) => r.trueEnd <= first + plan.minutes * 60_000);
      const contact = first + plan.minutes * 60_000 + 3000;
      return [...backlog(held, contact, plan.batch), ...readings.slice(held.length).map(live)];
    }
    case 'outage': {
      const from = first + plan.from * 60_000;
      const back = from + plan.minutes * 60_000 + 3000;
      const before = readings.filter((r) => r.trueEnd < from);
      const held = readings.filter((r) => r.trueEnd >= from && r.trueEnd <= back);
      return [
        ...before.map(live),
        ...backlog(held, back, plan.batch),
        ...readings.slice(before.length + held.length).map(live),
      ];
    }
    case 'two_instances': {
      const batches = readings.map(live);
      for (let i = 0; i + 1 < batches.length; i += plan.every + 1)
        [batches[i], batches[i + 1]] = [batches[i + 1]!, batches[i]!];
      return batches;
    }
    case 'redelivered': {
      const out: { batch: Delivered[]; at: number }[] = readings.map((r) => ({
        batch: live(r),
        at: r.trueEnd,
      }));
      readings.forEach((r, i) => {
        if (i % plan.every === 0)
          out.push({ batch: [send(r, r.trueEnd + plan.afterMs)], at: r.trueEnd + plan.afterMs });
      });
      return out.sort((a, b) => a.at - b.at).map((o) => o.batch);
    }
  }
}

/** What detection decided, by the seq of the reading each decision points at. */
export type Decisions = {
  /** Crossings acted on while the water ran: when, and for which reading. */
  acted: { seq: number; trigger: Trigger; at: number }[];
  /** Crossings of events that had ended by the time they were known. */
  past: { seq: number; trigger: Trigger }[];
  leaks: number[];
};

/**
 * The server's path for one flowbox alone in its zone: each batch's new readings (a seq already
 * stored is not passed again) placed in seq order (`placeBatch`), then fed to the zone's detection
 * in placed order (`detectBatch`), the server's clock being the batch's last receipt.
 */
export function runDetection(batches: readonly Delivered[][], margins: Margins): Decisions {
  let clock: DeviceClock = { offsetMs: null, lastAt: null, lastSeq: null };
  let state: DetectionState = EMPTY_DETECTION;
  const stored = new Set<number>();
  const decisions: Decisions = { acted: [], past: [], leaks: [] };
  let lastNow = -Infinity;
  const judge = (readings: FlowReading[], now: Date) => {
    const verdict = detectBatch(state, readings, () => margins, now);
    state = verdict.state;
    for (const p of verdict.past) decisions.past.push({ seq: p.seq!, trigger: p.trigger });
    if (verdict.crossing)
      decisions.acted.push({
        seq: verdict.crossing.seq!,
        trigger: verdict.crossing.trigger,
        at: now.getTime(),
      });
    for (const leak of verdict.leaks) decisions.leaks.push(leak.seq!);
  };
  // The server's sweep: readings held past a hole are judged when their wait ends, reading or not.
  const sweepUntil = (now: Date) => {
    for (let due = heldDueAt(state); due && due <= now; due = heldDueAt(state)) judge([], due);
  };
  for (const batch of batches) {
    const fresh = batch
      .filter(
        (d, i) => !stored.has(d.reading.seq) && batch.findIndex((e) => e.reading.seq === d.reading.seq) === i,
      )
      .sort((a, b) => a.reading.seq - b.reading.seq);
    if (fresh.length === 0) continue;
    for (const d of fresh) stored.add(d.reading.seq);
    const placed = placeBatch(
      fresh.map((d) => ({
        flowboxId: 'fb',
        clock,
        seq: d.reading.seq,
        at: new Date(d.reading.at),
        intervalS: d.reading.intervalS,
        receivedAt: new Date(d.receivedAt),
        sentAt: d.sentAt === null ? null : new Date(d.sentAt),
      })),
    );
    clock = placed.clocks.get('fb') ?? clock;
    const readings: FlowReading[] = fresh
      .map((d, i) => ({
        measuredAt: placed.placed[i]!.placedAt,
        live: placed.placed[i]!.live,
        flowboxId: 'fb',
        seq: d.reading.seq,
        deviceAt: new Date(d.reading.at),
        intervalS: d.reading.intervalS,
        volumeMl: d.reading.volumeMl,
        flowS: d.reading.flowS,
      }))
      .sort((a, b) => a.measuredAt.getTime() - b.measuredAt.getTime());
    // The server's clock never goes back: a batch committed after another (two instances, the
    // later reading first) is judged after it.
    const now = new Date(Math.max(lastNow, ...fresh.map((d) => d.receivedAt)));
    lastNow = now.getTime();
    sweepUntil(now);
    judge(readings, now);
  }
  sweepUntil(new Date(8.64e15));
  return decisions;
}

/**
 * The continuous-flow event each flowing reading belongs to, by the rule of docs/automation.md (on
 * the device's clock, consecutive seqs contiguous), written again here from the readings in seq
 * order: what detection must find whatever order batches commit in.
 */
export function eventsOf(readings: readonly DeviceReading[]): Map<number, number> {
  const events = new Map<number, number>();
  let event = -1;
  let last: DeviceReading | null = null;
  for (const r of [...readings].sort((a, b) => a.seq - b.seq)) {
    const flowing = r.volumeMl > 0 || r.flowS > 0;
    const since =
      last === null ? Infinity : r.seq === last.seq + 1 ? Math.min(60_000, r.at - last.at) : r.at - last.at;
    if (!flowing) {
      if (since >= FLOW_GAP_S * 1000) last = null;
      continue;
    }
    if (last === null || since - r.intervalS * 1000 >= FLOW_GAP_S * 1000) event += 1;
    events.set(r.seq, event);
    last = r;
  }
  return events;
}

/** Every crossing, acted or past, as `event:trigger`, sorted: what must not depend on delivery. */
export const crossingsOf = (d: Decisions, events: Map<number, number>): string[] =>
  [...d.acted, ...d.past].map((c) => `${events.get(c.seq)}:${c.trigger}`).sort();

/** The events that became leaks, sorted. */
export const leaksOf = (d: Decisions, events: Map<number, number>): number[] =>
  d.leaks.map((seq) => events.get(seq)!).sort((a, b) => a - b);
