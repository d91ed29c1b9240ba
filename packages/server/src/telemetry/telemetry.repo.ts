import type { DeviceClock } from '@flowbox/shared';
import { inArray, sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { joinUpSql, type FlowboxScope, type LocatedFlowbox } from '../db/scope.ts';
import { flowboxes } from '../db/schema.ts';
import { LIVE_CHANNEL } from '../live/index.ts';

type FlowboxRow = LocatedFlowbox['flowbox'];

/** A paired flowbox found for a batch: what the writer needs, with its building's time zone (local days). */
export type BatchFlowbox = {
  flowbox: Pick<FlowboxRow, 'id' | 'serial' | 'connected' | 'num'>;
  scope: FlowboxScope;
  timezone: string;
  /** Its clock as stored (docs/automation.md "Device clocks"): the batch places its readings with it. */
  clock: DeviceClock;
};

/**
 * The batch's flowboxes in one query (not one per message), with the building's time zone: read in
 * the batch's own transaction, so a zone's time zone is never stale and nothing needs a cache. Only
 * the few columns the writer uses, the serials as one array parameter.
 */
export async function findReadyFlowboxes(db: Db, serials: readonly string[]): Promise<BatchFlowbox[]> {
  if (serials.length === 0) return [];
  const found = await rows<{
    id: string;
    num: number;
    serial: string;
    connected: boolean;
    zone_id: string;
    building_id: string;
    site_id: string;
    customer_id: string;
    timezone: string;
    clock_offset_ms: number | string | null;
    last_reading_ms: number | string | null;
    last_sequence: number | string | null;
  }>(
    db,
    sql`SELECT f.id, f.num, f.serial, f.connected, z.id AS zone_id, b.id AS building_id, s.id AS site_id,
        s.customer_id, b.timezone, f.clock_offset_ms,
        (extract(epoch FROM f.last_reading_at) * 1000)::float8 AS last_reading_ms, f.last_sequence
      FROM flowboxes f ${joinUpSql('flowbox', 'site')}
      WHERE f.serial = ANY(${textArray(serials)}::text[]) AND f.pairing_state = 'ready'`,
  );
  return found.map((r) => ({
    flowbox: { id: r.id, num: Number(r.num), serial: r.serial, connected: r.connected },
    scope: { customerId: r.customer_id, siteId: r.site_id, buildingId: r.building_id, zoneId: r.zone_id },
    timezone: r.timezone,
    clock: {
      offsetMs: r.clock_offset_ms === null ? null : Number(r.clock_offset_ms),
      lastAt: r.last_reading_ms === null ? null : new Date(Math.round(Number(r.last_reading_ms))),
      lastSeq: r.last_sequence === null ? null : Number(r.last_sequence),
    },
  }));
}

/** Text elements (JSON) quoted for an array literal. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

type Rows<T> = { rows: T[] };
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as Rows<T>).rows;
}

export type ReadingRow = {
  flowboxId: string;
  seq: number;
  zoneId: string;
  measuredAt: Date;
  intervalS: number;
  volumeMl: number;
  flowS: number;
  temperatureC: number | null;
  humidityPct: number | null;
};

/**
 * The batch's readings, rollups and latest figures in ONE statement (one round trip, issue #6,
 * docs/performance.md "Ingest"). The rollups were summed by the caller over every reading of the
 * batch; they are applied only if every reading was new. When some (flowbox, seq) was stored
 * already (a redelivery or a replayed offline buffer), the readings that were new are still
 * inserted and the latest figures applied, but the rollups are NOT: the answer then names the
 * readings inserted (their indexes in `readings`), and the caller sums those and calls
 * `upsertHourly` and `upsertDaily` itself.
 *
 * Readings travel compactly: each names its flowbox by its index in a short array of the batch's
 * flowboxes (and their zones), and its end instant in epoch milliseconds.
 */
export async function writeBatch(
  db: Db,
  batch: {
    readings: readonly ReadingRow[];
    /**
     * Each flowbox of the readings as the batch found it: its small key (the rows' flowbox_num,
     * migration 0027) and its highest stored seq before the batch (`findReadyFlowboxes`).
     */
    flowboxes: ReadonlyMap<string, { num: number; storedSeq: number | null }>;
    /** Each reading's placement (clock.ts), in the order of `readings`: kept for the backtest. */
    placements: readonly { placedAt: Date; live: boolean }[];
    hourly: readonly HourlyRow[];
    daily: readonly DailyRow[];
    latest: readonly LatestFigures[];
    receivedAt: Date;
  },
): Promise<{ complete: true } | { complete: false; inserted: Set<number> }> {
  const { readings, placements, receivedAt } = batch;
  if (readings.length === 0 && batch.latest.length === 0) return { complete: true };
  const nums: number[] = [];
  const lasts: number[] = [];
  const zoneIds: string[] = [];
  const index = new Map<string, number>();
  const fi: number[] = new Array<number>(readings.length);
  readings.forEach((r, i) => {
    let at = index.get(r.flowboxId);
    if (at === undefined) {
      const flowbox = batch.flowboxes.get(r.flowboxId)!;
      nums.push(flowbox.num);
      lasts.push(flowbox.storedSeq ?? 0);
      zoneIds.push(r.zoneId);
      at = nums.length; // PostgreSQL arrays count from 1
      index.set(r.flowboxId, at);
    }
    fi[i] = at;
  });
  const applied = sql`(SELECT n FROM inserted) = ${readings.length}`;
  const [answer] = await rows<{ inserted: number; which: number[] | string | null }>(
    db,
    // Rows name a flowbox by its small key (flowboxes.num, migration 0027); `lasts` is each one's
    // highest stored seq before this batch (see `ins`).
    sql`WITH fb AS (SELECT ${arrayLiteral(nums)}::int[] AS nums, ${arrayLiteral(lasts)}::bigint[] AS lasts,
        ${arrayLiteral(zoneIds)}::uuid[] AS zones),
      r AS (
        SELECT DISTINCT ON (fi, s) * FROM unnest(
          ${arrayLiteral(fi)}::int[],
          ${arrayLiteral(readings.map((r) => r.seq))}::bigint[],
          ${arrayLiteral(readings.map((r) => r.measuredAt.getTime()))}::bigint[],
          ${arrayLiteral(readings.map((r) => r.intervalS))}::int[],
          ${arrayLiteral(readings.map((r) => r.volumeMl))}::bigint[],
          ${arrayLiteral(readings.map((r) => r.flowS))}::int[],
          ${arrayLiteral(readings.map((r) => r.temperatureC))}::float8[],
          ${arrayLiteral(readings.map((r) => r.humidityPct))}::float8[],
          ${arrayLiteral(placements.map((p) => p.placedAt.getTime()))}::bigint[],
          ${arrayLiteral(placements.map((p) => p.live))}::boolean[]
        ) WITH ORDINALITY AS r(fi, s, m, i, v, fs, t, h, pm, pl, n)
        ORDER BY fi, s, n
      ),
      ins AS (
        INSERT INTO telemetry_readings
          (flowbox_num, seq, zone_id, measured_at, interval_s, volume_ml, flow_s, temperature_c, humidity_pct, received_at,
           placed_at, placed_live)
        SELECT fb.nums[r.fi], r.s, fb.zones[r.fi], to_timestamp(r.m::float8 / 1000), r.i, r.v, r.fs, r.t, r.h,
          ${receivedAt.toISOString()}::timestamptz, to_timestamp(r.pm::float8 / 1000), r.pl
        FROM r, fb
        -- Once per (flowbox, seq): the key holds the partition key (measured_at), so a seq at or
        -- below the flowbox's highest stored one (a redelivery, a replay, a hole filling) is looked
        -- up in every partition; a higher one cannot be stored yet.
        WHERE (r.s > fb.lasts[r.fi] OR NOT EXISTS (
            SELECT 1 FROM telemetry_readings x WHERE x.flowbox_num = fb.nums[r.fi] AND x.seq = r.s))
        ORDER BY r.n
        ON CONFLICT (flowbox_num, seq, measured_at) DO NOTHING
        RETURNING flowbox_num, seq, measured_at
      ),
      inserted AS (SELECT count(*)::int AS n FROM ins),
      hourly AS (${hourlyUpsert(batch.hourly, applied)}),
      daily AS (${dailyUpsert(batch.daily, applied)}),
      latest AS (${latestUpdate(batch.latest, receivedAt)})
      SELECT (SELECT n FROM inserted) AS inserted,
        CASE WHEN ${applied} THEN NULL ELSE (
          SELECT array_agg(r.n - 1) FROM r, fb, ins
          WHERE ins.flowbox_num = fb.nums[r.fi] AND ins.seq = r.s AND ins.measured_at = to_timestamp(r.m::float8 / 1000)
        ) END AS which`,
  );
  if (answer!.inserted === readings.length) return { complete: true };
  return { complete: false, inserted: new Set(intArray(answer!.which)) };
}

/** An int[] as node-postgres (a JS array) or PGlite (the same, or its text form) answers it. */
function intArray(value: number[] | string | null): number[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

export type HourlyRow = {
  zoneId: string;
  hour: Date;
  flowboxId: string;
  volumeMl: number;
  flowS: number;
  readings: number;
  temperatureMin: number | null;
  temperatureMax: number | null;
  temperatureSum: number;
  temperatureCount: number;
  humidityMin: number | null;
  humidityMax: number | null;
  humiditySum: number;
  humidityCount: number;
};

/** Adds hourly sums to the rollup (rows in key order: lock order), standalone. */
export async function upsertHourly(db: Db, hourly: readonly HourlyRow[]): Promise<void> {
  if (hourly.length > 0) await db.execute(hourlyUpsert(hourly));
}

/** The hourly upsert statement; `when` (optional) must hold for any row to be written. */
function hourlyUpsert(hourly: readonly HourlyRow[], when: SQL = sql`true`): SQL {
  return sql`INSERT INTO consumption_hourly AS c
      (zone_id, hour, flowbox_id, volume_ml, flow_s, readings, temperature_min, temperature_max,
       temperature_sum, temperature_count, humidity_min, humidity_max, humidity_sum, humidity_count)
      SELECT * FROM unnest(
        ${arrayLiteral(hourly.map((r) => r.zoneId))}::uuid[],
        ${arrayLiteral(hourly.map((r) => r.hour.toISOString()))}::timestamptz[],
        ${arrayLiteral(hourly.map((r) => r.flowboxId))}::uuid[],
        ${arrayLiteral(hourly.map((r) => r.volumeMl))}::bigint[],
        ${arrayLiteral(hourly.map((r) => r.flowS))}::int[],
        ${arrayLiteral(hourly.map((r) => r.readings))}::int[],
        ${arrayLiteral(hourly.map((r) => r.temperatureMin))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.temperatureMax))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.temperatureSum))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.temperatureCount))}::int[],
        ${arrayLiteral(hourly.map((r) => r.humidityMin))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.humidityMax))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.humiditySum))}::float8[],
        ${arrayLiteral(hourly.map((r) => r.humidityCount))}::int[]
      ) WHERE ${when}
      ON CONFLICT (zone_id, hour, flowbox_id) DO UPDATE SET
        volume_ml = c.volume_ml + excluded.volume_ml,
        flow_s = c.flow_s + excluded.flow_s,
        readings = c.readings + excluded.readings,
        temperature_min = LEAST(c.temperature_min, excluded.temperature_min),
        temperature_max = GREATEST(c.temperature_max, excluded.temperature_max),
        temperature_sum = c.temperature_sum + excluded.temperature_sum,
        temperature_count = c.temperature_count + excluded.temperature_count,
        humidity_min = LEAST(c.humidity_min, excluded.humidity_min),
        humidity_max = GREATEST(c.humidity_max, excluded.humidity_max),
        humidity_sum = c.humidity_sum + excluded.humidity_sum,
        humidity_count = c.humidity_count + excluded.humidity_count`;
}

export type DailyRow = {
  zoneId: string;
  /** YYYY-MM-DD, the building's local date. */
  day: string;
  flowboxId: string;
  volumeMl: number;
  flowS: number;
  readings: number;
};

export async function upsertDaily(db: Db, daily: readonly DailyRow[]): Promise<void> {
  if (daily.length > 0) await db.execute(dailyUpsert(daily));
}

function dailyUpsert(daily: readonly DailyRow[], when: SQL = sql`true`): SQL {
  return sql`INSERT INTO consumption_daily AS c (zone_id, day, flowbox_id, volume_ml, flow_s, readings)
      SELECT * FROM unnest(
        ${arrayLiteral(daily.map((r) => r.zoneId))}::uuid[],
        ${arrayLiteral(daily.map((r) => r.day))}::date[],
        ${arrayLiteral(daily.map((r) => r.flowboxId))}::uuid[],
        ${arrayLiteral(daily.map((r) => r.volumeMl))}::bigint[],
        ${arrayLiteral(daily.map((r) => r.flowS))}::int[],
        ${arrayLiteral(daily.map((r) => r.readings))}::int[]
      ) WHERE ${when}
      ON CONFLICT (zone_id, day, flowbox_id) DO UPDATE SET
        volume_ml = c.volume_ml + excluded.volume_ml,
        flow_s = c.flow_s + excluded.flow_s,
        readings = c.readings + excluded.readings`;
}

/** A flowbox's newest reading of the batch (by seq), applied only if newer than what it holds. */
export type LatestFigures = {
  flowboxId: string;
  seq: number;
  flowLpm: string;
  temperature: number | null;
  humidity: number | null;
  /** The flowbox's clock after the batch (`placeBatch`): its offset, and the `at` of that reading. */
  clockOffsetMs: number | null;
  readingAt: Date | null;
  /** The meter's index (cumulative litres) the reading reported, if it did. */
  meterIndexL: number | null;
};

/** `last_seen_at` is rewritten only when older than this: see `latestUpdate`. */
export const LAST_SEEN_RESOLUTION_S = 5;

/**
 * Once per flowbox per batch: seen now (connected), and, when the batch's newest seq is beyond the
 * stored one, its flow and climate. The comparison is in SQL, so two instances writing batches of
 * the same device concurrently keep the newest.
 *
 * `last_seen_at` of a connected flowbox moves only once it is LAST_SEEN_RESOLUTION_S old: it is
 * read against timeouts of minutes (presence 180 s, the communication alert), and it is indexed
 * (`flowboxes_connected_idx`), so leaving it alone lets PostgreSQL update the row in place (a HOT
 * update, no new index entries) on most batches (docs/telemetry.md).
 */
function latestUpdate(latest: readonly LatestFigures[], now: Date): SQL {
  const at = now.toISOString();
  return sql`UPDATE flowboxes AS f SET
        last_seen_at = CASE WHEN f.connected AND f.last_seen_at IS NOT NULL
            AND f.last_seen_at <= ${at}::timestamptz
            AND f.last_seen_at > ${at}::timestamptz - make_interval(secs => ${LAST_SEEN_RESOLUTION_S})
          THEN f.last_seen_at ELSE ${at}::timestamptz END,
        connected = true,
        connection_changed_at = CASE WHEN f.connected THEN f.connection_changed_at ELSE ${at}::timestamptz END,
        last_sequence = CASE WHEN f.last_sequence IS NULL OR v.s > f.last_sequence THEN v.s ELSE f.last_sequence END,
        flow_lpm = CASE WHEN f.last_sequence IS NULL OR v.s > f.last_sequence THEN v.flow ELSE f.flow_lpm END,
        temperature = CASE WHEN (f.last_sequence IS NULL OR v.s > f.last_sequence) AND v.t IS NOT NULL
          THEN v.t ELSE f.temperature END,
        humidity = CASE WHEN (f.last_sequence IS NULL OR v.s > f.last_sequence) AND v.h IS NOT NULL
          THEN v.h ELSE f.humidity END,
        clock_offset_ms = CASE WHEN (f.last_sequence IS NULL OR v.s > f.last_sequence) AND v.o IS NOT NULL
          THEN v.o ELSE f.clock_offset_ms END,
        last_reading_at = CASE WHEN (f.last_sequence IS NULL OR v.s > f.last_sequence) AND v.ra IS NOT NULL
          THEN to_timestamp(v.ra::float8 / 1000) ELSE f.last_reading_at END,
        flowmeter_index_l = CASE WHEN (f.last_sequence IS NULL OR v.s > f.last_sequence) AND v.mi IS NOT NULL
          THEN v.mi ELSE f.flowmeter_index_l END,
        updated_at = ${at}::timestamptz
      FROM unnest(
        ${arrayLiteral(latest.map((l) => l.flowboxId))}::uuid[],
        ${arrayLiteral(latest.map((l) => l.seq))}::bigint[],
        ${arrayLiteral(latest.map((l) => l.flowLpm))}::numeric[],
        ${arrayLiteral(latest.map((l) => l.temperature))}::numeric[],
        ${arrayLiteral(latest.map((l) => l.humidity))}::numeric[],
        ${arrayLiteral(latest.map((l) => l.clockOffsetMs))}::bigint[],
        ${arrayLiteral(latest.map((l) => l.readingAt?.getTime() ?? null))}::bigint[],
        ${arrayLiteral(latest.map((l) => l.meterIndexL))}::numeric[]
      ) AS v(id, s, flow, t, h, o, ra, mi)
      WHERE f.id = v.id`;
}

export async function flowboxRows(db: Db, ids: readonly string[]): Promise<FlowboxRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(flowboxes)
    .where(inArray(flowboxes.id, [...ids]));
}

/** Several live messages in one statement (transactional like notifyLive). */
export async function notifyLiveMany(db: Db, messages: readonly object[]): Promise<void> {
  if (messages.length === 0) return;
  await db.execute(
    sql`SELECT pg_notify(${LIVE_CHANNEL}, m) FROM unnest(${textArray(messages.map((m) => JSON.stringify(m)))}::text[]) AS m`,
  );
}
