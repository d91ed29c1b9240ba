import { MAX_DEVICE_TIMESTAMP_AGE_S, MAX_DEVICE_TIMESTAMP_AHEAD_S } from '@flowbox/shared';
import { and, asc, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { events, flowboxes, telemetryReadings } from '../db/schema.ts';
import type { AutomationReading } from './zone-decisions.ts';

/** A time the zone was closed by automatic closing, and when a user reopened it (null: not yet). */
export type Closure = { closedAt: Date; reopenedAt: Date | null };

/** Closings and exits read at most (each exit is a name typed by a user: far fewer in a month). */
const CLOSURES_MAX = 10_000;

/**
 * The zone's closings by automatic closing in the window and the exits that reopened them, from the
 * activity log, as closures in time order.
 */
export async function zoneClosures(db: Db, zoneId: string, from: Date, to: Date): Promise<Closure[]> {
  const rows = await db
    .select({ at: events.createdAt, action: events.actionName })
    .from(events)
    .where(
      and(
        eq(events.zoneId, zoneId),
        inArray(events.actionName, ['automatic_closing_triggered', 'automatic_closing_exited']),
        gt(events.createdAt, from),
        lte(events.createdAt, to),
      ),
    )
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(CLOSURES_MAX);
  const closures: Closure[] = [];
  for (const row of rows) {
    const open = closures.at(-1);
    if (row.action === 'automatic_closing_triggered') {
      if (!open || open.reopenedAt) closures.push({ closedAt: row.at, reopenedAt: null });
    } else if (open && !open.reopenedAt) open.reopenedAt = row.at;
  }
  return closures;
}

/** One committed batch of the zone: its receipt, its readings in the order the listener fed them. */
export type StoredBatch = { receivedAt: Date; readings: AutomationReading[] };

/**
 * The zone's readings received in (from, to], batch by batch (one receipt instant is one batch's
 * commit), read by pages of `pageSize` in receipt order. The measured time bounds the scan on the
 * zone's index: ingest refuses a reading measured more than 35 days before its receipt or 15
 * minutes after it (docs/protocol.md "Timestamps and their bounds").
 */
export async function* storedBatches(
  db: Db,
  zoneId: string,
  from: Date,
  to: Date,
  pageSize: number,
): AsyncGenerator<StoredBatch> {
  const t = telemetryReadings;
  const measuredFrom = new Date(from.getTime() - MAX_DEVICE_TIMESTAMP_AGE_S * 1000);
  const measuredTo = new Date(to.getTime() + MAX_DEVICE_TIMESTAMP_AHEAD_S * 1000);
  type Cursor = { receivedAt: Date; flowboxNum: number; seq: number };
  let cursor: Cursor | null = null;
  let pending: StoredBatch | null = null;
  for (;;) {
    const page = await db
      .select({
        flowboxId: flowboxes.id,
        flowboxNum: t.flowboxNum,
        seq: t.seq,
        zoneId: t.zoneId,
        measuredAt: t.measuredAt,
        intervalS: t.intervalS,
        volumeMl: t.volumeMl,
        flowS: t.flowS,
        receivedAt: t.receivedAt,
        placedAt: t.placedAt,
        placedLive: t.placedLive,
      })
      .from(t)
      .innerJoin(flowboxes, eq(flowboxes.num, t.flowboxNum))
      .where(
        and(
          eq(t.zoneId, zoneId),
          gte(t.measuredAt, measuredFrom),
          lte(t.measuredAt, measuredTo),
          gt(t.receivedAt, from),
          lte(t.receivedAt, to),
          cursor
            ? sql`(${t.receivedAt}, ${t.flowboxNum}, ${t.seq}) > (${cursor.receivedAt.toISOString()}::timestamptz, ${cursor.flowboxNum}, ${cursor.seq})`
            : undefined,
        ),
      )
      .orderBy(asc(t.receivedAt), asc(t.flowboxNum), asc(t.seq))
      .limit(pageSize);
    for (const row of page) {
      const reading: AutomationReading = {
        zoneId: row.zoneId,
        flowboxId: row.flowboxId,
        seq: row.seq,
        measuredAt: row.measuredAt,
        intervalS: row.intervalS,
        volumeMl: row.volumeMl,
        flowS: row.flowS,
        // Stored before placements were kept: at its end, never after its receipt, as live.
        placedAt: row.placedAt ?? new Date(Math.min(row.measuredAt.getTime(), row.receivedAt.getTime())),
        live: row.placedLive ?? true,
      };
      if (pending && pending.receivedAt.getTime() !== row.receivedAt.getTime()) {
        yield ordered(pending);
        pending = null;
      }
      pending ??= { receivedAt: row.receivedAt, readings: [] };
      pending.readings.push(reading);
    }
    if (page.length < pageSize) break;
    const last: Cursor = page.at(-1)!;
    cursor = { receivedAt: last.receivedAt, flowboxNum: last.flowboxNum, seq: last.seq };
  }
  if (pending) yield ordered(pending);
}

/** As the listener orders a zone's readings of a batch: by placed time, else as stored (flowbox, seq). */
function ordered(batch: StoredBatch): StoredBatch {
  batch.readings.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime());
  return batch;
}
