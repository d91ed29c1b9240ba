import type { MonitoringMetric, MonitoringStatus, WaterTemperature } from '@flowbox/shared';
import { and, eq, isNull, lt, ne, notExists, or, sql, type SQL } from 'drizzle-orm';
import { arrayLiteral } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { joinUp, joinUpSql } from '../db/scope.ts';
import { alerts, flowboxes, flowboxMonitoring, zones } from '../db/schema.ts';

/*
 * What the alert raisers (raisers.ts) read of stored state: the flowboxes' monitoring statuses and
 * clocks, and the sweep's questions. Cause keys are spelled as raisers.ts spells them.
 */

/** A flowbox's stored conditions: one row per monitoring status it has (one with nulls for none). */
export type FlowboxConditions = {
  id: string;
  water: WaterTemperature;
  metric: MonitoringMetric | null;
  status: MonitoringStatus | null;
  /** Its stored clock offset, and the zone of its active clock alert (null: none). */
  offsetMs: number | null;
  clockAlertZoneId: string | null;
};

/**
 * Each flowbox's zone water kind, its monitoring statuses, its clock offset and its active clock
 * alert, in one round trip. Read on every telemetry batch: plain SQL with the ids as one array
 * parameter, rows as they come (the query builder's mapping was a tenth of a batch's allocations,
 * docs/performance.md "Ingest").
 */
export async function flowboxConditions(tx: Db, flowboxIds: readonly string[]): Promise<FlowboxConditions[]> {
  const found = await rowsOf<{
    id: string;
    water: WaterTemperature;
    metric: MonitoringMetric | null;
    status: MonitoringStatus | null;
    offset_ms: number | string | null;
    alert_zone_id: string | null;
  }>(
    tx,
    sql`SELECT f.id, z.water_temperature AS water, m.metric, m.status, f.clock_offset_ms::float8 AS offset_ms,
        a.zone_id AS alert_zone_id
      FROM flowboxes f ${joinUpSql('flowbox', 'zone')}
      LEFT JOIN flowbox_monitoring m ON m.flowbox_id = f.id
      LEFT JOIN alerts a ON a.zone_id = f.zone_id AND a.cause = 'clock_skew:' || f.id AND a.state <> 'resolved'
      WHERE f.id = ANY(${arrayLiteral(flowboxIds)}::uuid[])`,
  );
  return found.map((r) => ({
    id: r.id,
    water: r.water,
    metric: r.metric,
    status: r.status,
    offsetMs: r.offset_ms === null ? null : Number(r.offset_ms),
    clockAlertZoneId: r.alert_zone_id,
  }));
}

export async function setMonitoringStatus(
  tx: Db,
  flowboxId: string,
  metric: MonitoringMetric,
  status: MonitoringStatus,
  at: Date,
): Promise<void> {
  await tx
    .insert(flowboxMonitoring)
    .values({ flowboxId, metric, status, changedAt: at })
    .onConflictDoUpdate({
      target: [flowboxMonitoring.flowboxId, flowboxMonitoring.metric],
      set: { status, changedAt: at },
    });
}

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Takes the sweep's lock for the transaction, if no other instance holds it; false otherwise. */
export async function trySweepLock(tx: Db): Promise<boolean> {
  const result = await tx.execute(
    sql`SELECT pg_try_advisory_xact_lock(hashtext('flowbox_alert_sweep')) AS locked`,
  );
  const [lock] = (result as unknown as { rows: { locked: boolean }[] }).rows;
  return Boolean(lock?.locked);
}

const noActiveAlert = (
  tx: Db,
  zoneId: typeof zones.id | typeof flowboxes.zoneId,
  cause: ReturnType<typeof sql>,
) =>
  notExists(
    tx
      .select({ one: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.zoneId, zoneId), eq(alerts.cause, cause), ne(alerts.state, 'resolved'))),
  );

/** Paired flowboxes last heard before `before` (or paired then, never heard), without an active alert. */
export async function silentFlowboxes(tx: Db, before: Date) {
  const lastHeard = sql`coalesce(${flowboxes.lastSeenAt}, ${flowboxes.pairedAt})`;
  return tx
    .select({
      id: flowboxes.id,
      serial: flowboxes.serial,
      zoneId: flowboxes.zoneId,
      lastSeenAt: flowboxes.lastSeenAt,
    })
    .from(flowboxes)
    .where(
      and(
        eq(flowboxes.pairingState, 'ready'),
        lt(lastHeard, before),
        noActiveAlert(tx, flowboxes.zoneId, sql`'flowbox_communication:' || ${flowboxes.id}`),
      ),
    );
}

/** Active communication alerts whose flowbox was heard since `before`, or is gone. */
export async function communicationAlertsBack(tx: Db, before: Date) {
  return tx
    .select({ zoneId: alerts.zoneId, cause: alerts.cause })
    .from(alerts)
    .leftJoin(flowboxes, eq(flowboxes.id, alerts.flowboxId))
    .where(
      and(
        eq(alerts.category, 'flowbox_communication'),
        ne(alerts.state, 'resolved'),
        or(isNull(flowboxes.id), sql`${flowboxes.lastSeenAt} >= ${before}`),
      ),
    );
}

/** Zones in maintenance mode without an active maintenance alert. */
export async function zonesInMaintenance(tx: Db) {
  return tx
    .select({ id: zones.id })
    .from(zones)
    .where(and(eq(zones.maintenanceMode, true), noActiveAlert(tx, zones.id, sql`'maintenance'`)));
}

/** Active maintenance alerts of zones no longer in maintenance mode. */
export async function maintenanceAlertsEnded(tx: Db) {
  return tx
    .select({ zoneId: alerts.zoneId })
    .from(alerts)
    .innerJoin(zones, eq(zones.id, alerts.zoneId))
    .where(
      and(eq(alerts.cause, 'maintenance'), ne(alerts.state, 'resolved'), eq(zones.maintenanceMode, false)),
    );
}

/** Paired flowboxes announcing another water kind than their zone's, without an active alert. */
export async function waterMismatchedFlowboxes(tx: Db) {
  return joinUp(
    tx
      .select({
        id: flowboxes.id,
        serial: flowboxes.serial,
        zoneId: flowboxes.zoneId,
        device: flowboxes.waterTemperature,
        zone: zones.waterTemperature,
      })
      .from(flowboxes),
    'flowbox',
    'zone',
  ).where(
    and(
      eq(flowboxes.pairingState, 'ready'),
      sql`${flowboxes.waterTemperature} IS NOT NULL AND ${flowboxes.waterTemperature} <> ${zones.waterTemperature}`,
      noActiveAlert(tx, flowboxes.zoneId, sql`'water_mismatch:' || ${flowboxes.id}`),
    ),
  );
}

/** Active water-mismatch alerts whose flowbox agrees with its zone again, or is gone. */
export async function waterMismatchAlertsFixed(tx: Db) {
  return tx
    .select({ zoneId: alerts.zoneId, cause: alerts.cause })
    .from(alerts)
    .innerJoin(zones, eq(zones.id, alerts.zoneId))
    .leftJoin(flowboxes, eq(flowboxes.id, alerts.flowboxId))
    .where(
      and(
        sql`${alerts.cause} LIKE 'water_mismatch:%'`,
        ne(alerts.state, 'resolved'),
        or(isNull(flowboxes.id), sql`${flowboxes.waterTemperature} = ${zones.waterTemperature}`),
      ),
    );
}
