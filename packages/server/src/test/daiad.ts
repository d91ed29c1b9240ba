import {
  detectBatch,
  effectiveMargins,
  EMPTY_DETECTION,
  heldDueAt,
  parseTelemetry,
  PROTOCOL_VERSION,
  utcOffsetMs,
  type Crossing,
  type FlowReading,
  type Leak,
  type Margins,
  type OpeningHours,
  type PastCrossing,
  type Telemetry,
  type ZoneProfile,
} from '@flowbox/shared';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/*
 * Real households' hourly meter readings (issue #29 "Real households"): the DAIAD smart water meter
 * trial A, © the DAIAD consortium, CC BY-SA 4.0 (github.com/DAIAD/data; creativecommons.org/licenses/
 * by-sa/4.0). Read as a flowbox would report them, for the tests (src/test/daiad/, a sample) and the
 * benchmark `npm run bench households` (the whole file). docs/automation.md "Measured on real
 * households" says what the choices below mean for the figures.
 *
 * One row of the file: a household, the local time (Europe/Madrid, no offset written) when its meter
 * was read, the meter's index and the litres since its previous reading. About one row an hour, with
 * gaps, near-duplicates two seconds apart (two loggers), and a few glitches (negative litres, an
 * index jumping between two meters).
 *
 * What the replay sends, one telemetry reading per row, `at` the row's time:
 * - `interval_s` is the time since the household's previous row, at most 3600 (the protocol's
 *   largest interval). After a longer gap the reading covers the last hour and carries all the
 *   row's litres; the hours before it have no reading (unknown to the leak analytics, as they are).
 * - Negative litres: a device counts pulses and reports volume ≥ 0; a meter read lower than before
 *   (a reverse flow, a glitch) is reported as 0 L. Counted (`negative`).
 * - A row not later than the previous one (a repeated time) has no interval of its own: its litres
 *   go into the next reading. Counted (`notAfter`).
 * - A reading the protocol refuses (more litres than the largest model lets through in its
 *   interval: the index jumping between two meters) is sent as it is and refused by the server;
 *   `accepted` tells them apart, and they are counted (`refused`).
 * - `flow_s`: hourly litres say nothing of when in the hour water ran. Two feeds: `constant` (the
 *   hour's litres as a constant flow over the whole interval: the most alarming reading of the data,
 *   an upper bound on flow time) and `{ lpm }` (water ran at that flow, so for litres ÷ lpm minutes,
 *   at most the interval). Either is an assumption.
 */

export const DAIAD_TIMEZONE = 'Europe/Madrid';

/** The credit every output derived from the data shows (the licence asks for it). */
export const DAIAD_CREDIT =
  'Real households: DAIAD smart water meter trial A (github.com/DAIAD/data), © the DAIAD consortium, CC BY-SA 4.0';

/** The whole file, beside the project (../shared/data/daiad/), or DAIAD_CSV. */
export const DAIAD_FILE = resolve(
  process.env.DAIAD_CSV ?? resolve(import.meta.dirname, '../../../../../shared/data/daiad/households.csv.gz'),
);
/** The sample the tests read, in the repository (src/test/daiad/README.md says how it was cut). */
export const DAIAD_SAMPLE = resolve(import.meta.dirname, 'daiad/households-sample.csv');

export type MeterRow = { localTime: string; meterL: number; litres: number };
export type Household = { household: string; rows: MeterRow[] };

/**
 * The file's households, one at a time (rows of a household are contiguous in the file): memory
 * holds one household. `wanted`: only those (the others are skipped as they stream by).
 */
export async function* readHouseholds(path: string, wanted?: ReadonlySet<string>): AsyncGenerator<Household> {
  const input = createReadStream(path);
  const lines = createInterface({ input: path.endsWith('.gz') ? input.pipe(createGunzip()) : input });
  const seen = new Set<string>();
  let current = null as Household | null;
  let header = true;
  for await (const line of lines) {
    if (header) {
      if (line !== 'household,local_time,meter_l,litres') throw new Error(`unexpected header: ${line}`);
      header = false;
      continue;
    }
    if (!line) continue;
    const [household = '', localTime = '', meter = '', litres = ''] = line.split(',');
    if (current?.household !== household) {
      if (current && (!wanted || wanted.has(current.household))) yield current;
      if (seen.has(household)) throw new Error(`household ${household} is not contiguous in ${path}`);
      seen.add(household);
      current = { household, rows: [] };
    }
    if (wanted && !wanted.has(household)) continue;
    current.rows.push({ localTime, meterL: Number(meter), litres: Number(litres) });
  }
  if (current && (!wanted || wanted.has(current.household))) yield current;
}

/** Flow time of a reading: the whole interval, or the litres at a flow of `lpm`. */
export type FlowFeed = 'constant' | { lpm: number };

/** One reading as the replay sends it; `accepted`: the protocol's check takes it. */
export type ReplayedReading = {
  seq: number;
  /** End of the interval, UTC ms. */
  at: number;
  intervalS: number;
  volumeL: number;
  flowS: number;
  accepted: boolean;
};

export type ReplayCounts = {
  rows: number;
  readings: number;
  /** Rows with negative litres, sent as 0 L. */
  negative: number;
  /** Rows not later than the previous one: their litres went into the next reading. */
  notAfter: number;
  /** Rows more than 1.5 h after the previous one (a reading missed): the last hour holds their litres. */
  gaps: number;
  /** Readings the protocol refuses (beyond the largest model's flow). */
  refused: number;
};

/**
 * The household's rows as a flowbox reports them (see the top of this file). `shiftDays` moves
 * every wall-clock time by whole days before it is read in the time zone, so a replay lands in the
 * window the server accepts with its local hours and weekdays kept.
 */
export function replay(
  rows: readonly MeterRow[],
  options: { flow: FlowFeed; shiftDays?: number; timezone?: string },
): { readings: ReplayedReading[]; counts: ReplayCounts } {
  const timezone = options.timezone ?? DAIAD_TIMEZONE;
  const shiftMs = (options.shiftDays ?? 0) * 86_400_000;
  const counts: ReplayCounts = {
    rows: rows.length,
    readings: 0,
    negative: 0,
    notAfter: 0,
    gaps: 0,
    refused: 0,
  };
  const readings: ReplayedReading[] = [];
  let previous: number | null = null;
  let carried = 0;
  for (const row of rows) {
    if (row.litres < 0) counts.negative += 1;
    const litres = Math.max(0, row.litres) + carried;
    const at = wallToInstant(Date.parse(`${row.localTime}Z`) + shiftMs, timezone, previous);
    if (previous !== null && at <= previous) {
      counts.notAfter += 1;
      carried = litres;
      continue;
    }
    carried = 0;
    const elapsedS = previous === null ? 3600 : Math.round((at - previous) / 1000);
    if (elapsedS > 5400) counts.gaps += 1;
    previous = at;
    const intervalS = Math.max(1, Math.min(3600, elapsedS));
    const flowS =
      litres <= 0
        ? 0
        : options.flow === 'constant'
          ? intervalS
          : Math.min(intervalS, Math.ceil((litres / options.flow.lpm) * 60));
    const reading: ReplayedReading = {
      seq: readings.length + 1,
      at,
      intervalS,
      volumeL: litres,
      flowS,
      accepted: true,
    };
    // The server's own check of a message (parse.ts), as ingest runs it.
    reading.accepted = parseTelemetry(JSON.stringify(telemetry(reading))).ok;
    if (!reading.accepted) counts.refused += 1;
    readings.push(reading);
  }
  counts.readings = readings.length;
  return { readings, counts };
}

/** The message a device publishes for a replayed reading. */
export function telemetry(r: ReplayedReading, sentAt?: number): Telemetry {
  return {
    v: PROTOCOL_VERSION,
    seq: r.seq,
    at: new Date(r.at).toISOString(),
    interval_s: r.intervalS,
    volume_l: r.volumeL,
    flow_s: r.flowS,
    temperature_c: null,
    humidity_pct: null,
    ...(sentAt === undefined ? {} : { sent_at: new Date(sentAt).toISOString() }),
  };
}

export type ReplayZone = {
  margins: Margins;
  profile: ZoneProfile;
  openingHours: OpeningHours | null;
  timezone: string;
};

/** What detection decided over a replay: crossings acted on, crossings about the past, leaks. */
export type DetectionRun = { crossings: Crossing[]; past: PastCrossing[]; leaks: Leak[] };

/**
 * The live detection code (`detectBatch`, the one the server runs in each ingest batch) over a
 * replay delivered live: each accepted reading is a batch of its own, judged a second after its end,
 * as the server places a reading that carries `sent_at`. The margins in force are the zone's, as
 * `effectiveMargins` gives them at each reading.
 */
export function runDetection(
  readings: readonly ReplayedReading[],
  zone: ReplayZone,
  flowboxId = 'replayed',
): DetectionRun {
  const run: DetectionRun = { crossings: [], past: [], leaks: [] };
  const marginsAt = (r: FlowReading) => effectiveMargins(zone.margins, zone, r.measuredAt);
  let state = EMPTY_DETECTION;
  const judge = (batch: FlowReading[], now: Date) => {
    const verdict = detectBatch(state, batch, marginsAt, now);
    state = verdict.state;
    if (verdict.crossing) run.crossings.push(verdict.crossing);
    run.past.push(...verdict.past);
    run.leaks.push(...verdict.leaks);
  };
  // The server's sweep: a reading held past a hole (one ingest refused) is judged when its wait ends.
  const sweepUntil = (now: Date) => {
    for (let due = heldDueAt(state); due && due <= now; due = heldDueAt(state)) judge([], due);
  };
  for (const r of readings) {
    if (!r.accepted) continue;
    const at = new Date(r.at);
    const now = new Date(r.at + 1000);
    sweepUntil(now);
    judge(
      [
        {
          measuredAt: at,
          intervalS: r.intervalS,
          volumeMl: Math.round(r.volumeL * 1000),
          flowS: r.flowS,
          flowboxId,
          seq: r.seq,
          deviceAt: at,
          live: true,
        },
      ],
      now,
    );
  }
  sweepUntil(new Date(8.64e15));
  return run;
}

/**
 * The instant of a wall-clock time (given as ms of the wall clock read as UTC) in a time zone: of a
 * time that happens twice (clocks going back), the first one after `after`; a time that does not
 * exist (clocks going forward) moves forward by the gap.
 */
function wallToInstant(wall: number, timezone: string, after: number | null): number {
  const before = offsetAt(wall - 86_400_000, timezone);
  const later = offsetAt(wall + 86_400_000, timezone);
  const candidates = [...new Set([before, later])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + offsetAt(instant, timezone) === wall)
    .sort((a, b) => a - b);
  if (!candidates.length) return wall - before;
  return candidates.find((c) => after === null || c > after) ?? candidates.at(-1)!;
}

const offsets = new Map<string, number>();
/** `utcOffsetMs`, kept per quarter hour (offsets change only on quarter hours): a year is 35,000 of them. */
function offsetAt(at: number, timezone: string): number {
  const key = `${timezone}|${Math.floor(at / 900_000)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 200_000) offsets.clear();
    offset = utcOffsetMs(at, timezone);
    offsets.set(key, offset);
  }
  return offset;
}
