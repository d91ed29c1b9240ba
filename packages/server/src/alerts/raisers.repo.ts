import type { MonitoringMetric, MonitoringStatus } from '@flowbox/shared';
import { and, eq, inArray, isNull, lt, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { alerts, flowboxes, flowboxMonitoring, zones } from '../db/schema.ts';

/*
 * What the alert raisers (raisers.ts) read of stored state: the flowboxes' monitoring statuses and
 * clocks, and the sweep's questions. Cause keys are spelled as raisers.ts spells them.
 */

/** Each flowbox's zone water kind and its current monitoring statuses, in one round trip. */
export async function monitoringStates(tx: Db, flowboxIds: string[]) {
  return tx
    .select({
      id: flowboxes.id,
      water: zones.waterTemperature,
      metric: flowboxMonitoring.metric,
      status: flowboxMonitoring.status,
    })
    .from(flowboxes)
    .innerJoin(zones, eq(zones.id, flowboxes.zoneId))
    .leftJoin(flowboxMonitoring, eq(flowboxMonitoring.flowboxId, flowboxes.id))
    .where(inArray(flowboxes.id, flowboxIds));
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

/** Each flowbox's stored clock offset, and the zone of its active clock alert (null: none). */
export async function clocksAndAlerts(tx: Db, flowboxIds: string[]) {
  return tx
    .select({ id: flowboxes.id, offsetMs: flowboxes.clockOffsetMs, alertZoneId: alerts.zoneId })
    .from(flowboxes)
    .leftJoin(
      alerts,
      and(
        eq(alerts.zoneId, flowboxes.zoneId),
        eq(alerts.cause, sql`'clock_skew:' || ${flowboxes.id}`),
        ne(alerts.state, 'resolved'),
      ),
    )
    .where(inArray(flowboxes.id, flowboxIds));
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
  return tx
    .select({
      id: flowboxes.id,
      serial: flowboxes.serial,
      zoneId: flowboxes.zoneId,
      device: flowboxes.waterTemperature,
      zone: zones.waterTemperature,
    })
    .from(flowboxes)
    .innerJoin(zones, eq(zones.id, flowboxes.zoneId))
    .where(
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
