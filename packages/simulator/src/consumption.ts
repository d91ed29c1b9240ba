import type { FlowboxModel, WaterPointType, Weekday, ZoneProfile } from '@flowbox/shared';
import { gaussian, poisson, uniform, type Random } from './random.ts';

/**
 * The water a zone draws, from its water points (spec §3 types) and its profile
 * (docs/hierarchy.md "Zone profiles"): each water point starts uses as a Poisson process whose
 * rate follows the profile's hour-of-day weights and its weekday/weekend factor; each use draws a
 * random volume at the point's flow, possibly in several fills (washers, dishwashers).
 */

/** One kind of use of a water point: how often, how much, how fast. */
export type UsageModel = {
  /** Uses a day on a weekday of a profile whose weekday factor is 1. */
  usesPerDay: number;
  volumeL: readonly [min: number, max: number];
  flowLpm: number;
  /** Machines fill several times per cycle, `fillGapS` apart. */
  fills?: number;
  fillGapS?: number;
};

export const WATER_POINT_USAGE: Record<WaterPointType, UsageModel> = {
  toilet: { usesPerDay: 20, volumeL: [5, 9], flowLpm: 8 },
  sink: { usesPerDay: 25, volumeL: [0.5, 3], flowLpm: 6 },
  shower: { usesPerDay: 2, volumeL: [40, 90], flowLpm: 9 },
  bathtube: { usesPerDay: 0.3, volumeL: [120, 180], flowLpm: 15 },
  washer: { usesPerDay: 0.8, volumeL: [40, 60], flowLpm: 10, fills: 4, fillGapS: 600 },
  dishwasher: { usesPerDay: 1, volumeL: [10, 15], flowLpm: 8, fills: 3, fillGapS: 900 },
  watering: { usesPerDay: 1, volumeL: [200, 400], flowLpm: 15 },
  pool: { usesPerDay: 0.5, volumeL: [300, 800], flowLpm: 20 },
  'water-heater': { usesPerDay: 3, volumeL: [20, 60], flowLpm: 10 },
  fridge: { usesPerDay: 8, volumeL: [0.1, 0.3], flowLpm: 1 },
};

type HourRange = readonly [from: number, to: number, weight: number];

/** A profile's shape: relative activity per local hour, weekdays and weekend, and the weekend's share. */
export type ProfilePattern = {
  weekday: readonly number[];
  weekend: readonly number[];
  /** Uses on a weekend day relative to a weekday. */
  weekendFactor: number;
};

function hours(ranges: readonly HourRange[]): number[] {
  const weights = Array.from({ length: 24 }, () => 0);
  for (const [from, to, weight] of ranges) for (let h = from; h < to; h++) weights[h] = weight;
  return weights;
}

function pattern(weekday: readonly HourRange[], weekendFactor: number, weekend = weekday): ProfilePattern {
  return { weekday: hours(weekday), weekend: hours(weekend), weekendFactor };
}

const ALL_DAY: readonly HourRange[] = [[0, 24, 1]];
const WORKING_DAY: readonly HourRange[] = [
  [7, 8, 0.5],
  [8, 12, 2],
  [12, 14, 2.5],
  [14, 18, 1.8],
  [18, 19, 0.5],
];

/** The expected patterns of docs/hierarchy.md, hour by hour. */
export const PROFILE_PATTERNS: Record<ZoneProfile, ProfilePattern> = {
  housing: pattern(
    [
      [0, 6, 0.2],
      [6, 9, 3],
      [9, 12, 1],
      [12, 14, 1.5],
      [14, 18, 0.8],
      [18, 22, 2.5],
      [22, 24, 0.8],
    ],
    1.1,
    [
      [0, 7, 0.2],
      [7, 11, 3],
      [11, 18, 1.2],
      [18, 23, 2.2],
      [23, 24, 0.6],
    ],
  ),
  office: pattern(WORKING_DAY, 0.03),
  sanitary: pattern([[7, 21, 1], ...WORKING_DAY.slice(1, 4)], 0.3),
  showers: pattern(
    [
      [6, 8, 2],
      [12, 14, 1],
      [17, 21, 3],
    ],
    0.6,
  ),
  kitchen: pattern(
    [
      [6, 9, 1],
      [11, 14, 3],
      [18, 21, 2.5],
    ],
    0.7,
  ),
  laundry: pattern(
    [
      [0, 6, 2],
      [6, 22, 0.8],
      [22, 24, 2],
    ],
    1,
  ),
  hospitality: pattern(
    [
      [0, 6, 0.2],
      [6, 10, 3],
      [10, 17, 0.7],
      [17, 23, 1.5],
      [23, 24, 0.4],
    ],
    1.2,
  ),
  healthcare: pattern(
    [
      [0, 6, 0.6],
      [6, 22, 1.5],
      [22, 24, 0.8],
    ],
    1,
  ),
  education: pattern(
    [
      [8, 12, 2],
      [12, 14, 2.5],
      [14, 17, 1.8],
    ],
    0.02,
  ),
  sports: pattern(
    [
      [9, 12, 1],
      [17, 22, 3],
    ],
    1.5,
    [[9, 19, 2]],
  ),
  pool: pattern(
    [
      [6, 9, 2],
      [9, 20, 1],
    ],
    1,
  ),
  irrigation: pattern(
    [
      [5, 7, 3],
      [20, 22, 3],
    ],
    1,
  ),
  industrial_process: pattern(
    [
      [0, 6, 0.3],
      [6, 22, 1.5],
      [22, 24, 0.3],
    ],
    0.3,
  ),
  cooling: pattern(
    [
      [0, 24, 1],
      [10, 18, 1.5],
    ],
    1,
  ),
  technical_room: pattern(ALL_DAY, 1),
  common_areas: pattern(
    [
      [6, 9, 2],
      [9, 20, 0.7],
    ],
    0.5,
  ),
  other: pattern(ALL_DAY, 1),
};

/**
 * Highest flow each model lets through, litres a minute: caps the readings, sizes a burst pipe.
 * Rough figures for domestic meters of each pipe size.
 */
export const MODEL_MAX_FLOW_LPM: Record<FlowboxModel, number> = {
  half_inch_v1: 30,
  one_inch_v1: 80,
  two_inches_v1: 300,
};

export type WaterPointSpec = {
  type: WaterPointType;
  /** Identical points (ten toilets of a block); 1 by default. */
  count?: number;
  /** The point's measured flow, litres a minute, when known (the water point's `nominal_flow_lpm`). */
  nominal_flow_lpm?: number;
};

export type ZoneSpec = {
  profile: ZoneProfile;
  water_points: readonly WaterPointSpec[];
  /** IANA zone of the building, for local hours and weekdays. */
  timezone: string;
  /** The building's weekend (docs/hierarchy.md), Saturday and Sunday by default. */
  weekend?: readonly Weekday[];
};

export const FAULT_KINDS = ['running_toilet', 'burst_pipe', 'slow_leak'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type FaultSpec = {
  kind: FaultKind;
  /** Simulated epoch milliseconds; from the start and forever when left out. */
  from?: number;
  until?: number;
  /** Overrides the kind's flow, litres a minute. */
  flowLpm?: number;
  /**
   * The fault is over once the valve closes (the plumber called by the alert fixes it while the
   * water is off): reopening the valve does not bring it back. Otherwise it flows again on reopening.
   */
  endsWhenValveCloses?: boolean;
};

/**
 * Continuous flows of the faults, litres a minute: a toilet whose flapper leaks refills without
 * end; a burst pipe runs near the meter's limit; a slow leak is a drip that never stops.
 */
export function faultFlowLpm(fault: FaultSpec, model: FlowboxModel): number {
  if (fault.flowLpm !== undefined) return fault.flowLpm;
  switch (fault.kind) {
    case 'running_toilet':
      return 0.6;
    case 'burst_pipe':
      return 0.8 * MODEL_MAX_FLOW_LPM[model];
    case 'slow_leak':
      return 0.05;
  }
}

const WEEKDAY_NAMES: Record<string, Weekday> = {
  Mon: 'monday',
  Tue: 'tuesday',
  Wed: 'wednesday',
  Thu: 'thursday',
  Fri: 'friday',
  Sat: 'saturday',
  Sun: 'sunday',
};

export type LocalTime = { hour: number; weekday: Weekday };

/** Local hour and weekday of an instant, cached per quarter hour (every offset is a multiple). */
export function localTimeReader(timezone: string): (ms: number) => LocalTime {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hour: 'numeric',
    weekday: 'short',
    hourCycle: 'h23',
  });
  let cachedBlock = Number.NaN;
  let cached: LocalTime = { hour: 0, weekday: 'monday' };
  return (ms) => {
    const block = Math.floor(ms / 900_000);
    if (block !== cachedBlock) {
      const parts = format.formatToParts(ms);
      const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
      const weekday = WEEKDAY_NAMES[parts.find((p) => p.type === 'weekday')?.value ?? 'Mon'] ?? 'monday';
      cached = { hour, weekday };
      cachedBlock = block;
    }
    return cached;
  };
}

function meanVolume(usage: UsageModel): number {
  return (usage.volumeL[0] + usage.volumeL[1]) / 2;
}

/** What the model expects a zone to draw over one local day of the given kind, in litres. */
export function expectedDailyVolume(zone: ZoneSpec, dayKind: 'weekday' | 'weekend'): number {
  const factor = dayKind === 'weekday' ? 1 : PROFILE_PATTERNS[zone.profile].weekendFactor;
  return zone.water_points.reduce((sum, point) => {
    const usage = WATER_POINT_USAGE[point.type];
    return sum + (point.count ?? 1) * usage.usesPerDay * factor * meanVolume(usage);
  }, 0);
}

/** A stretch of flow in progress: one fill of one use. */
type Draw = { start: number; end: number; lps: number };

export type IntervalReading = { volumeL: number; flowS: number };

/** At most this step when sampling starts, so the hour weights apply where they should. */
const SAMPLE_STEP_MS = 60_000;

export type ConsumptionOptions = {
  /**
   * Step of sampling when uses start, SAMPLE_STEP_MS by default. A whole fraction of the hour on
   * the hour (a quarter hour for past readings of that interval) keeps each hour's weight, for a
   * fraction of the work; uses then start anywhere in the step, as in a minute.
   */
  sampleStepMs?: number;
};

/**
 * One zone's consumption, advanced interval by interval. Pure apart from its seeded randomness: the
 * same seed and the same calls give the same litres.
 */
export class ConsumptionModel {
  private draws: Draw[] = [];
  private readonly localTime: (ms: number) => LocalTime;
  private readonly weekend: ReadonlySet<Weekday>;
  private readonly hourShares: { weekday: number[]; weekend: number[] };

  constructor(
    private readonly zone: ZoneSpec,
    private readonly model: FlowboxModel,
    private readonly random: Random,
    private faults: readonly FaultSpec[] = [],
    private readonly options: ConsumptionOptions = {},
  ) {
    this.localTime = localTimeReader(zone.timezone);
    this.weekend = new Set(zone.weekend ?? ['saturday', 'sunday']);
    const pattern = PROFILE_PATTERNS[zone.profile];
    const shares = (weights: readonly number[]) => {
      const total = weights.reduce((a, b) => a + b, 0);
      return weights.map((w) => (total > 0 ? w / total : 0));
    };
    this.hourShares = { weekday: shares(pattern.weekday), weekend: shares(pattern.weekend) };
  }

  setFaults(faults: readonly FaultSpec[]): void {
    this.faults = faults;
  }

  /**
   * Water through the meter between `from` and `to` (simulated epoch ms). With the valve closed no
   * water flows at all: uses in progress stop and the demand is lost, faults included.
   */
  advance(from: number, to: number, valveOpen: boolean): IntervalReading {
    if (!valveOpen) {
      this.valveClosed();
      return { volumeL: 0, flowS: 0 };
    }
    const step = this.options.sampleStepMs ?? SAMPLE_STEP_MS;
    for (let t = from; t < to; t += step) this.startUses(t, Math.min(to, t + step));
    let volumeL = 0;
    const segments: Array<[number, number]> = [];
    for (const draw of this.draws) {
      const start = Math.max(from, draw.start);
      const end = Math.min(to, draw.end);
      if (end > start) {
        volumeL += ((end - start) / 1000) * draw.lps;
        segments.push([start, end]);
      }
    }
    for (const fault of this.faults) {
      const start = Math.max(from, fault.from ?? from);
      const end = Math.min(to, fault.until ?? to);
      if (end > start) {
        volumeL += ((end - start) / 60_000) * faultFlowLpm(fault, this.model);
        segments.push([start, end]);
      }
    }
    this.draws = this.draws.filter((d) => d.end > to);
    const capL = ((to - from) / 60_000) * MODEL_MAX_FLOW_LPM[this.model];
    return {
      volumeL: Math.round(Math.min(volumeL, capL) * 1000) / 1000,
      flowS: Math.round(unionLength(segments) / 1000),
    };
  }

  /** The valve closed: uses in progress stop, and so do the faults that end with it. */
  valveClosed(): void {
    this.draws = [];
    this.faults = this.faults.filter((fault) => !fault.endsWhenValveCloses);
  }

  private startUses(from: number, to: number): void {
    const { hour, weekday } = this.localTime(from);
    const weekendDay = this.weekend.has(weekday);
    const share = (weekendDay ? this.hourShares.weekend : this.hourShares.weekday)[hour] ?? 0;
    const dayFactor = weekendDay ? PROFILE_PATTERNS[this.zone.profile].weekendFactor : 1;
    const hourFraction = (to - from) / 3_600_000;
    for (const point of this.zone.water_points) {
      const usage = WATER_POINT_USAGE[point.type];
      // The hour's share of the day's uses, times the part of the hour sampled: the shares of the
      // 24 hours add up to 1, so a whole day draws usesPerDay × dayFactor uses on average.
      const mean = (point.count ?? 1) * usage.usesPerDay * dayFactor * share * hourFraction;
      const starts = poisson(this.random, mean);
      for (let i = 0; i < starts; i++)
        this.startUse(usage, point.nominal_flow_lpm, uniform(this.random, from, to));
    }
  }

  private startUse(usage: UsageModel, nominalFlowLpm: number | undefined, start: number): void {
    const fills = usage.fills ?? 1;
    const lps = (nominalFlowLpm ?? usage.flowLpm) / 60;
    const fillL = uniform(this.random, usage.volumeL[0], usage.volumeL[1]) / fills;
    for (let i = 0; i < fills; i++) {
      const fillStart = start + i * (usage.fillGapS ?? 0) * 1000;
      this.draws.push({ start: fillStart, end: fillStart + (fillL / lps) * 1000, lps });
    }
  }
}

function unionLength(segments: Array<[number, number]>): number {
  segments.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [curStart, curEnd] = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (const [start, end] of segments) {
    if (start > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      [curStart, curEnd] = [start, end];
    } else curEnd = Math.max(curEnd, end);
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}

/** The device's own sensors: room temperature and humidity with a daily swing and some noise. */
export function ambientReading(random: Random, hour: number): { temperatureC: number; humidityPct: number } {
  const swing = Math.sin(((hour - 9) / 24) * 2 * Math.PI);
  return {
    temperatureC: Math.round((20 + 3 * swing + 0.2 * gaussian(random)) * 10) / 10,
    humidityPct: Math.round((50 - 8 * swing + gaussian(random)) * 10) / 10,
  };
}
