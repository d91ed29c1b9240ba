import { localDate, startOfLocalDay } from '@flowbox/shared';
import { deriveSeed, pastReadings, type PastReading, type ZoneSpec } from '@flowbox/simulator';
import type { Db } from '../db/client.ts';
import { demoHistoryStart } from '../seed/index.ts';
import { addToRollups, type RolledReading } from '../telemetry/index.ts';
import { hasHistory, markHistory, type FleetZone } from './fleet.repo.ts';

/** The demo fleet's seed (fleet.ts): the past of a zone is drawn from it and the zone's names. */
export const DEMO_SEED = 2026;

/**
 * The past is drawn in quarter-hour readings (a flowbox may report every 1 s to 1 h, docs/protocol.md),
 * uses starting in quarter-hour steps on the hour: the rollups are hours and days, so the graphs
 * are what minute readings would draw, for a fraction of the time (docs/performance.md "Demo start").
 */
export const HISTORY_INTERVAL_S = 900;

/** Readings summed and written at once: about four months of one zone. */
const CHUNK = 12_000;

/** A demo zone and the flowbox its past is recorded under (the one the demo fleet runs in it). */
export type HistoryDevice = { zone: FleetZone; flowboxId: string };

/** The zone as the simulator models it: its profile, its building's time and its water points. */
export function zoneSpec(zone: FleetZone): ZoneSpec {
  return {
    profile: zone.profile,
    timezone: zone.timezone,
    weekend: zone.weekend,
    water_points: zone.waterPoints.map((point) => ({
      type: point.type,
      ...(point.nominalFlowLpm === null ? {} : { nominal_flow_lpm: point.nominalFlowLpm }),
    })),
  };
}

/**
 * What a demo zone drew from the first day of its history (local midnight, DEMO_HISTORY_MONTHS
 * before this month) until `now`, one reading every HISTORY_INTERVAL_S:
 * the simulator's model of its water points and profile, seeded by its building and zone names, so
 * the same zone gets the same past (tests sum it).
 */
export function demoPast(zone: FleetZone, now: Date): { from: Date; readings: Iterable<PastReading> } {
  const from = startOfLocalDay(demoHistoryStart(localDate(now, zone.timezone)), zone.timezone);
  const interval = HISTORY_INTERVAL_S * 1000;
  return {
    from,
    readings: pastReadings({
      zone: zoneSpec(zone),
      model: zone.model,
      seed: deriveSeed(DEMO_SEED, `${zone.buildingName}/${zone.name}`),
      from: from.getTime(),
      until: Math.floor(now.getTime() / interval) * interval,
      intervalS: HISTORY_INTERVAL_S,
    }),
  };
}

/**
 * Issue #15: the demo shows a running fleet's past, not empty graphs. Each demo zone without a
 * history yet gets its past written to the hourly and daily rollups through the live ingest's own
 * rollup code (telemetry `addToRollups`), in one transaction with the mark that it was written:
 * a second start (or a flowbox paired again) writes nothing twice. Returns the zones written.
 */
export async function seedDemoHistory(db: Db, devices: readonly HistoryDevice[], now: Date): Promise<number> {
  let written = 0;
  for (const { zone, flowboxId } of devices) {
    if (await hasHistory(db, zone.path.zoneId)) continue;
    await db.transaction(async (tx) => {
      const past = demoPast(zone, now);
      let chunk: RolledReading[] = [];
      let count = 0;
      let last = past.from.getTime();
      for (const reading of past.readings) {
        chunk.push({
          located: { timezone: zone.timezone },
          reading: {
            flowboxId,
            zoneId: zone.path.zoneId,
            measuredAt: new Date(reading.at),
            volumeMl: Math.round(reading.volumeL * 1000),
            flowS: reading.flowS,
            temperatureC: reading.temperatureC,
            humidityPct: reading.humidityPct,
          },
        });
        last = reading.at;
        if (chunk.length === CHUNK) {
          await addToRollups(tx, chunk);
          count += chunk.length;
          chunk = [];
        }
      }
      await addToRollups(tx, chunk);
      count += chunk.length;
      await markHistory(tx, zone.path.zoneId, {
        flowboxId,
        from: past.from.toISOString(),
        until: new Date(last).toISOString(),
        readings: count,
      });
    });
    written += 1;
  }
  return written;
}
