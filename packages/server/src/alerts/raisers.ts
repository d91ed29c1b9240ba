import {
  CLOCK_SKEW_ALERT_S,
  CONTINUOUS_FLOW_HOURS,
  clockSkewAlarming,
  clockSkewMs,
  type AutotestResult,
  type Currency,
  type LeakAnalysis,
  type FlowboxCommandName,
  type MonitoringMetric,
  type MonitoringStatus,
  type RebootReason,
  type WaterTemperature,
} from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { FlowboxScope, LocatedFlowbox } from '../db/scope.ts';
import { recordEvent } from '../events/index.ts';
import type { StoredReading, TelemetryListener } from '../telemetry/index.ts';
import { clearAlert, raiseAlert } from './alerts.service.ts';
import { HUMIDITY_BAND, nextMonitoringStatus, TEMPERATURE_BANDS, type MonitoringBand } from './monitoring.ts';
import {
  communicationAlertsBack,
  flowboxConditions,
  maintenanceAlertsEnded,
  setMonitoringStatus,
  silentFlowboxes,
  trySweepLock,
  waterMismatchAlertsFixed,
  waterMismatchedFlowboxes,
  zonesInMaintenance,
  type FlowboxConditions,
} from './raisers.repo.ts';

/*
 * The causes fed by data that exists now (docs/alerts.md): each is one call from the point where
 * the cause is detected, or a pass of the sweep over state already stored. Cause keys name the
 * flowbox, so each device has its own alert.
 */

type Device = { id: string; serial: string; scope: Pick<FlowboxScope, 'zoneId'> };
const deviceOf = (located: LocatedFlowbox): Device => ({
  id: located.flowbox.id,
  serial: located.flowbox.serial,
  scope: located.scope,
});

/** flowbox_dysfunction: a failed autotest opens it; the next autotest that passes resolves it. */
export async function autotestAlert(
  tx: Db,
  located: LocatedFlowbox,
  result: AutotestResult,
  at: Date,
): Promise<void> {
  const device = deviceOf(located);
  const cause = `autotest_failed:${device.id}`;
  if (result === 'failed')
    await raiseAlert(tx, {
      category: 'flowbox_dysfunction',
      zoneId: device.scope.zoneId,
      flowboxId: device.id,
      flowboxSerial: device.serial,
      cause,
      details: { autotest: result },
      at,
    });
  else if (result === 'all_succeeded' || result === 'some_skipped')
    await clearAlert(tx, { zoneId: device.scope.zoneId, cause, at }, 'device');
}

/**
 * The cause of a flowbox whose valve did not confirm a command: one alert whichever path sees it
 * (a command expiring, automatic closing's supervision of its safety close), repeats counted.
 */
export const valveUnconfirmedCause = (flowboxId: string) => `valve_unconfirmed:${flowboxId}`;

/**
 * flowbox_dysfunction: a valve command the device never confirmed before its expiry; the next
 * valve command it carries out resolves it.
 */
export async function valveCommandAlert(
  tx: Db,
  located: LocatedFlowbox,
  command: FlowboxCommandName,
  status: 'done' | 'refused' | 'expired',
  at: Date,
): Promise<void> {
  if (command !== 'valve_open' && command !== 'valve_close') return;
  const device = deviceOf(located);
  const cause = valveUnconfirmedCause(device.id);
  if (status === 'expired')
    await raiseAlert(tx, {
      category: 'flowbox_dysfunction',
      zoneId: device.scope.zoneId,
      flowboxId: device.id,
      flowboxSerial: device.serial,
      cause,
      details: { command },
      at,
    });
  else if (status === 'done') await clearAlert(tx, { zoneId: device.scope.zoneId, cause, at }, 'device');
}

/** flowbox_internal_status: a reboot by crash or watchdog (a fault, not an operator's choice). */
export async function rebootAlert(
  tx: Db,
  located: LocatedFlowbox,
  reason: RebootReason,
  at: Date,
): Promise<void> {
  if (reason !== 'crash' && reason !== 'watchdog') return;
  const device = deviceOf(located);
  await raiseAlert(tx, {
    category: 'flowbox_internal_status',
    zoneId: device.scope.zoneId,
    flowboxId: device.id,
    flowboxSerial: device.serial,
    cause: `reboot_fault:${device.id}`,
    details: { reboot: reason },
    at,
  });
}

/**
 * The flowbox conditions judged on each committed telemetry batch, from one read of their stored
 * state (one round trip a batch, docs/performance.md "Ingest"):
 * - spec §4 temperature and humidity monitoring: the newest reading of each flowbox moves its status
 *   (with hysteresis); a change is logged, an "alert" status raises water_temperature (temperature)
 *   or flowbox_internal_status (humidity), and "normal" resolves it;
 * - the device clock (`judgeClocks`): the offset the batch just stored for each flowbox is judged.
 */
export function conditionsListener(): TelemetryListener {
  return {
    name: 'alerts.conditions',
    inTransaction: async (tx, readings) => {
      const newest = new Map<string, StoredReading>();
      const latest = new Map<string, StoredReading>();
      for (const r of readings) {
        const seen = newest.get(r.flowboxId);
        if (!seen || r.measuredAt >= seen.measuredAt) newest.set(r.flowboxId, r);
        const last = latest.get(r.flowboxId);
        if (!last || r.seq > last.seq) latest.set(r.flowboxId, r);
      }
      if (newest.size === 0) return;
      const found = await flowboxConditions(tx, [...newest.keys()]);
      await judgeMonitoring(tx, newest, found);
      await judgeClocksFound(tx, clocksToJudge(latest.values()), found);
    },
  };
}

async function judgeMonitoring(
  tx: Db,
  newest: ReadonlyMap<string, StoredReading>,
  found: readonly FlowboxConditions[],
): Promise<void> {
  const water = new Map<string, WaterTemperature>();
  const statuses = new Map<string, MonitoringStatus>();
  for (const row of found) {
    water.set(row.id, row.water);
    if (row.metric && row.status) statuses.set(`${row.id}|${row.metric}`, row.status);
  }
  const statusOf = (id: string, metric: MonitoringMetric): MonitoringStatus =>
    statuses.get(`${id}|${metric}`) ?? 'normal';
  for (const reading of newest.values()) {
    const kind = water.get(reading.flowboxId);
    if (reading.temperatureC !== null && kind)
      await monitor(tx, reading, 'temperature', reading.temperatureC, TEMPERATURE_BANDS[kind], statusOf);
    if (reading.humidityPct !== null)
      await monitor(tx, reading, 'humidity', reading.humidityPct, HUMIDITY_BAND, statusOf);
  }
}

async function monitor(
  tx: Db,
  reading: StoredReading,
  metric: MonitoringMetric,
  value: number,
  band: MonitoringBand,
  statusOf: (id: string, metric: MonitoringMetric) => MonitoringStatus,
): Promise<void> {
  const current = statusOf(reading.flowboxId, metric);
  const next = nextMonitoringStatus(current, value, band);
  if (next === current) return;
  const at = reading.receivedAt;
  await setMonitoringStatus(tx, reading.flowboxId, metric, next, at);
  await recordEvent(tx, at, {
    action: metric === 'temperature' ? 'temperature_status_changed' : 'humidity_status_changed',
    object: 'flowbox',
    objectId: reading.flowboxId,
    objectLabel: reading.serial,
    scope: reading.scope,
    by: null,
    origin: 'device',
    changedFields: [next],
  });
  const category = metric === 'temperature' ? 'water_temperature' : 'flowbox_internal_status';
  const cause = `${metric}:${reading.flowboxId}`;
  if (next === 'alert')
    await raiseAlert(tx, {
      category,
      zoneId: reading.zoneId,
      flowboxId: reading.flowboxId,
      flowboxSerial: reading.serial,
      cause,
      details: { [metric]: value, threshold: band.alert },
      at,
    });
  else if (next === 'normal') await clearAlert(tx, { zoneId: reading.zoneId, cause, at }, 'device');
}

/**
 * The clock alert's hysteresis: raised once the skew is beyond CLOCK_SKEW_ALERT_S (120 s), resolved
 * only once it is back within this, so a clock hovering at the bound does not open and resolve an
 * alert on every batch (docs/automation.md "Device clocks").
 */
export const CLOCK_SKEW_RESOLVE_S = 90;

export const clockSkewCause = (flowboxId: string) => `clock_skew:${flowboxId}`;

/**
 * flowbox_internal_status for a device clock off by more than CLOCK_SKEW_ALERT_S either way: the
 * clocks of a batch's flowboxes worth judging. An older device's backlog (no `sent_at`) tells its
 * delay, not its skew: judged once it is live, or when dated ahead of its receipt (no delay makes a
 * clock look ahead). Detection does not depend on the device's clock (readings are placed on the
 * server's time line), so the alert tells someone to fix the device's time sync; it changes nothing
 * for the zone's other flowboxes.
 */
function clocksToJudge(latest: Iterable<StoredReading>): MeasuredClock[] {
  return [...latest]
    .filter((r) => r.live || r.measuredAt > r.receivedAt)
    .map((r) => ({ flowboxId: r.flowboxId, zoneId: r.zoneId, serial: r.serial, at: r.receivedAt }));
}

/**
 * A flowbox whose clock was just measured, and when: by default the offset stored for it; or one
 * given here, measured from a reading dropped for its date, which must never be stored where
 * placement would use it (docs/automation.md "Device clocks").
 */
export type MeasuredClock = {
  flowboxId: string;
  zoneId: string;
  serial: string;
  at: Date;
  offsetMs?: number;
};

/**
 * Raises or resolves each flowbox's clock alert from the offset stored for it (in this
 * transaction): one query for all of them. Used for each committed batch, and by ingest for a
 * device whose readings are all dropped for their dates (a clock years off), which would otherwise
 * never reach a batch.
 */
export async function judgeClocks(tx: Db, measured: readonly MeasuredClock[]): Promise<void> {
  if (measured.length === 0) return;
  await judgeClocksFound(
    tx,
    measured,
    await flowboxConditions(
      tx,
      measured.map((m) => m.flowboxId),
    ),
  );
}

async function judgeClocksFound(
  tx: Db,
  measured: readonly MeasuredClock[],
  found: readonly FlowboxConditions[],
): Promise<void> {
  const byId = new Map(measured.map((m) => [m.flowboxId, m]));
  const judged = new Set<string>();
  for (const row of found) {
    const clock = byId.get(row.id);
    // A flowbox has a row per monitoring status: judged once.
    if (!clock || judged.has(row.id)) continue;
    judged.add(row.id);
    const offsetMs = clock.offsetMs ?? row.offsetMs;
    if (offsetMs === null) continue;
    const cause = clockSkewCause(row.id);
    if (row.clockAlertZoneId === null && clockSkewAlarming(offsetMs)) {
      const skewS = Math.round(clockSkewMs(offsetMs) / 1000);
      await raiseAlert(tx, {
        category: 'flowbox_internal_status',
        zoneId: clock.zoneId,
        flowboxId: row.id,
        flowboxSerial: clock.serial,
        cause,
        details: {
          clock: skewS > 0 ? 'ahead' : 'behind',
          skew_s: Math.abs(skewS),
          bound_s: CLOCK_SKEW_ALERT_S,
        },
        at: clock.at,
      });
    } else if (row.clockAlertZoneId !== null && Math.abs(offsetMs) <= CLOCK_SKEW_RESOLVE_S * 1000)
      await clearAlert(tx, { zoneId: row.clockAlertZoneId, cause, at: clock.at }, 'device');
  }
}

export type SweepOptions = {
  /** No message from a paired flowbox for this long opens flowbox_communication (docs/alerts.md). */
  communicationTimeoutMs: number;
};

/**
 * The alert sweep over stored state, run by the alert job: flowboxes silent too long
 * (flowbox_communication) or back, zones in maintenance mode (maintenance), and flowboxes whose
 * announced hot/cold water contradicts their zone's (water_temperature). Only one instance sweeps
 * at a time (an advisory lock held for the transaction); raising only where no alert is active
 * keeps repeats for causes that really repeat.
 */
export async function sweepAlerts(ctx: Context, options: SweepOptions): Promise<void> {
  const now = ctx.now();
  const before = new Date(now.getTime() - options.communicationTimeoutMs);
  await ctx.db.transaction(async (tx) => {
    if (!(await trySweepLock(tx))) return;
    await sweepCommunication(tx, before, now);
    await sweepMaintenance(tx, now);
    await sweepWaterMismatch(tx, now);
  });
}

async function sweepCommunication(tx: Db, before: Date, now: Date): Promise<void> {
  for (const f of await silentFlowboxes(tx, before))
    await raiseAlert(tx, {
      category: 'flowbox_communication',
      zoneId: f.zoneId,
      flowboxId: f.id,
      flowboxSerial: f.serial,
      cause: `flowbox_communication:${f.id}`,
      details: { last_seen_at: f.lastSeenAt?.toISOString() ?? null },
      at: now,
    });
  // Back (heard since the timeout), or unpaired: the cause is gone.
  for (const a of await communicationAlertsBack(tx, before))
    await clearAlert(tx, { zoneId: a.zoneId, cause: a.cause, at: now }, 'device');
}

async function sweepMaintenance(tx: Db, now: Date): Promise<void> {
  for (const z of await zonesInMaintenance(tx))
    await raiseAlert(tx, {
      category: 'maintenance',
      zoneId: z.id,
      cause: 'maintenance',
      details: {},
      at: now,
    });
  for (const a of await maintenanceAlertsEnded(tx))
    await clearAlert(tx, { zoneId: a.zoneId, cause: 'maintenance', at: now });
}

async function sweepWaterMismatch(tx: Db, now: Date): Promise<void> {
  for (const f of await waterMismatchedFlowboxes(tx))
    await raiseAlert(tx, {
      category: 'water_temperature',
      zoneId: f.zoneId,
      flowboxId: f.id,
      flowboxSerial: f.serial,
      cause: `water_mismatch:${f.id}`,
      details: { device_water: f.device, zone_water: f.zone },
      at: now,
    });
  for (const a of await waterMismatchAlertsFixed(tx))
    await clearAlert(tx, { zoneId: a.zoneId, cause: a.cause, at: now });
}

/**
 * flowbox_internal_status (docs/firmware.md "Alerts"): a firmware update that ended in a failure
 * opens one on the flowbox; a later update that succeeds resolves it.
 */
export async function firmwareUpdateAlert(
  tx: Db,
  located: LocatedFlowbox,
  outcome: { state: string; version: string; reason: string | null },
  at: Date,
): Promise<void> {
  const device = deviceOf(located);
  const cause = `firmware_update_failed:${device.id}`;
  if (outcome.state === 'success') await clearAlert(tx, { zoneId: device.scope.zoneId, cause, at }, 'device');
  else
    await raiseAlert(tx, {
      category: 'flowbox_internal_status',
      zoneId: device.scope.zoneId,
      flowboxId: device.id,
      flowboxSerial: device.serial,
      cause,
      details: { firmware_update: outcome.state, version: outcome.version, reason: outcome.reason },
      at,
    });
}

/**
 * flowbox_internal_status: a rollout halted by itself, on the zone of the device whose failure
 * halted it (every alert belongs to a zone), naming the rollout and why.
 */
export async function rolloutHaltedAlert(
  tx: Db,
  located: LocatedFlowbox,
  rollout: { id: string; label: string; version: string; reason: string },
  at: Date,
): Promise<void> {
  const device = deviceOf(located);
  await raiseAlert(tx, {
    category: 'flowbox_internal_status',
    zoneId: device.scope.zoneId,
    flowboxId: device.id,
    flowboxSerial: device.serial,
    cause: `firmware_rollout_halted:${rollout.id}`,
    details: { rollout_halted: rollout.reason, rollout: rollout.label, version: rollout.version },
    at,
  });
}

/** The leak analytics alert's cause (docs/automation.md "Leak analytics"): one per zone. */
export const NO_FLOW_FREE_HOUR_CAUSE = 'no_flow_free_hour';

/**
 * leakage_detection from the hourly leak analytics (Kamstrup's LEAK info code), raised once per
 * episode: when the hour counter reaches CONTINUOUS_FLOW_HOURS in a run that was not already
 * alerting; resolved when an hour at zero ends the run (the counter back to 0, or a run starting
 * later: a flow-free hour came between). An alert a user resolved during an episode is not raised
 * again before the next one. `before` is the zone's state before this analysis.
 */
export async function continuousFlowAlert(
  tx: Db,
  input: {
    zoneId: string;
    before: { hours: number; since: string | null; atLeast: boolean } | null;
    analysis: LeakAnalysis;
    currency: Currency | null;
    at: Date;
  },
): Promise<void> {
  const { zoneId, before, analysis, at } = input;
  const flow = analysis.continuousFlow;
  const wasActive = before !== null && before.hours >= CONTINUOUS_FLOW_HOURS;
  const sameRun = before?.since != null && before.since === flow.since;
  // A run older than the analysed window starts where the window does, which moves.
  const sameEpisode = wasActive && flow.active && (sameRun || (before.atLeast && flow.atLeast));
  if (wasActive && !sameEpisode)
    await clearAlert(tx, { zoneId, cause: NO_FLOW_FREE_HOUR_CAUSE, at }, 'device');
  if (!flow.active || sameEpisode) return;
  await raiseAlert(tx, {
    category: 'leakage_detection',
    zoneId,
    cause: NO_FLOW_FREE_HOUR_CAUSE,
    details: {
      flowing_since: flow.since,
      continuous_hours: flow.hours,
      night_flow_lph: analysis.nightFlowLph,
      loss_l_per_day: analysis.lossLitresPerDay,
      loss_cost_per_day: analysis.lossCostPerDay,
      currency: input.currency,
    },
    at,
  });
}
