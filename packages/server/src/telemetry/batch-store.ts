import { placeBatch, type Telemetry } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { StoredReading } from './hooks.ts';
import { compare, rollUp, type Candidate, type RolledReading } from './rollups.ts';
import {
  findReadyFlowboxes,
  upsertDaily,
  upsertHourly,
  writeBatch,
  type BatchFlowbox,
  type LatestFigures,
} from './telemetry.repo.ts';

/**
 * What became of one submitted reading once its batch committed: stored, known already, from a
 * device that is not paired, or refused by the database for its own values (dropped, counted).
 */
export type Outcome = 'stored' | 'duplicate' | 'unknown_device' | 'rejected';

/** One reading of a batch, as the writer's queue hands it over. */
export type BatchEntry = {
  serial: string;
  telemetry: Telemetry;
  /** Server clock when the reading was submitted (its receipt: detection's time line). */
  receivedAt: Date;
};

export type StoredBatch = {
  outcomes: Outcome[];
  stored: StoredReading[];
  zones: Map<string, BatchFlowbox['scope']>;
  /** The batch's paired flowboxes, and each one's newest reading of the batch. */
  found: BatchFlowbox[];
  newest: Map<string, Telemetry>;
};

/**
 * A batch's writes, inside its transaction: finds the paired flowboxes, places each reading on the
 * server's time line, and writes readings, rollups and latest figures (the new readings only rolled
 * up when some were stored already). Returns each entry's outcome, the readings stored, and what
 * the live message and listeners need.
 */
export async function storeBatch(tx: Db, batch: readonly BatchEntry[], now: Date): Promise<StoredBatch> {
  const found = await findReadyFlowboxes(tx, [...new Set(batch.map((e) => e.serial))]);
  const bySerial = new Map(found.map((f) => [f.flowbox.serial, f]));
  const outcomes: Outcome[] = [];
  const located: Candidate[] = [];
  // Each flowbox's newest message of the batch (by seq): its latest figures.
  const newest = new Map<string, Telemetry>();
  batch.forEach((entry, i) => {
    const where = bySerial.get(entry.serial);
    if (!where) {
      outcomes[i] = 'unknown_device';
      return;
    }
    const t = entry.telemetry;
    const flowboxId = where.flowbox.id;
    outcomes[i] = 'duplicate';
    located.push({
      located: where,
      entry: i,
      placedAt: entry.receivedAt,
      live: true,
      reading: {
        flowboxId,
        seq: t.seq,
        zoneId: where.scope.zoneId,
        measuredAt: new Date(t.at),
        intervalS: t.interval_s,
        volumeMl: Math.round(t.volume_l * 1000),
        flowS: t.flow_s,
        temperatureC: t.temperature_c,
        humidityPct: t.humidity_pct,
      },
    });
    const known = newest.get(flowboxId);
    if (!known || t.seq > known.seq) newest.set(flowboxId, t);
  });

  // Key order everywhere: concurrent batches (other instances too) take row locks in one order.
  // The sort is stable, so of a (flowbox, seq) sent twice in the batch the first one is kept.
  located.sort((a, b) => compare(a.reading.flowboxId, b.reading.flowboxId) || a.reading.seq - b.reading.seq);
  const ordered = located.filter(
    (c, i) =>
      i === 0 ||
      c.reading.seq !== located[i - 1]!.reading.seq ||
      c.reading.flowboxId !== located[i - 1]!.reading.flowboxId,
  );
  // Each reading on the server's time line, and each flowbox's clock after the batch
  // (docs/automation.md "Device clocks").
  const clocks = placeBatch(
    ordered.map((c) => ({
      flowboxId: c.reading.flowboxId,
      seq: c.reading.seq,
      at: c.reading.measuredAt,
      intervalS: c.reading.intervalS,
      receivedAt: batch[c.entry]!.receivedAt,
      sentAt: sentAtOf(batch[c.entry]!.telemetry),
      clock: c.located.clock,
    })),
  );
  ordered.forEach((c, i) => {
    c.placedAt = clocks.placed[i]!.placedAt;
    c.live = clocks.placed[i]!.live;
  });
  const latestRows: LatestFigures[] = [...newest.entries()]
    .sort((a, b) => compare(a[0], b[0]))
    .map(([flowboxId, t]) => ({
      flowboxId,
      seq: t.seq,
      flowLpm: ((t.volume_l * 60) / t.interval_s).toFixed(4),
      temperature: t.temperature_c,
      humidity: t.humidity_pct,
      clockOffsetMs: clocks.clocks.get(flowboxId)?.offsetMs ?? null,
      readingAt: clocks.clocks.get(flowboxId)?.lastAt ?? null,
      meterIndexL: t.meter_index_l ?? null,
    }));
  // The common case, every reading new: readings, rollups and latest figures in one statement.
  const all = rollUp(ordered);
  const written = await writeBatch(tx, {
    readings: ordered.map((c) => c.reading),
    flowboxes: new Map(found.map((f) => [f.flowbox.id, { num: f.flowbox.num, storedSeq: f.clock.lastSeq }])),
    placements: ordered,
    hourly: all.hourly,
    daily: all.daily,
    latest: latestRows,
    receivedAt: now,
  });
  let kept = ordered;
  if (!written.complete) {
    // Some were stored already (a redelivery, a replayed buffer): roll up the new ones only.
    kept = ordered.filter((_, i) => written.inserted.has(i));
    const some = rollUp(kept);
    await upsertHourly(tx, some.hourly);
    await upsertDaily(tx, some.daily);
  }
  const stored: StoredReading[] = [];
  const zones = new Map<string, BatchFlowbox['scope']>();
  for (const c of kept) {
    const r = c.reading;
    outcomes[c.entry] = 'stored';
    stored.push({
      flowboxId: r.flowboxId,
      serial: c.located.flowbox.serial,
      scope: c.located.scope,
      zoneId: r.zoneId,
      seq: r.seq,
      measuredAt: r.measuredAt,
      intervalS: r.intervalS,
      volumeMl: r.volumeMl,
      flowS: r.flowS,
      temperatureC: r.temperatureC,
      humidityPct: r.humidityPct,
      receivedAt: batch[c.entry]!.receivedAt,
      committedAt: now,
      placedAt: c.placedAt,
      live: c.live,
    });
    zones.set(r.zoneId, c.located.scope);
  }
  return { outcomes, stored, zones, found, newest };
}

/** A message's `sent_at` (docs/protocol.md "Clocks"); null when the device does not send it. */
const sentAtOf = (t: Telemetry): Date | null => (t.sent_at === undefined ? null : new Date(t.sent_at));

/**
 * Readings that never came through the broker (the demo's past, src/demo/history.ts) added to the
 * hourly and daily rollups: summed by the same `rollUp` and written by the same upserts as the live
 * batches, so every screen reads them as it reads live ones. No raw reading is stored (nothing reads
 * them back: graphs, comparisons and costs read the rollups), no latest figures, no listeners.
 * One flowbox's readings together (rollUp gathers each flowbox's hours on their own).
 */
export async function addToRollups(
  tx: Db,
  readings: readonly RolledReading[],
): Promise<{ hourly: number; daily: number }> {
  const { hourly, daily } = rollUp(readings);
  await upsertHourly(tx, hourly);
  await upsertDaily(tx, daily);
  return { hourly: hourly.length, daily: daily.length };
}
