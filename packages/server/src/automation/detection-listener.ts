import {
  detect,
  effectiveMargins,
  type DetectionState,
  type FlowReading,
  type Margins,
  type Trigger,
} from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { RaiseAlert } from './alerting.ts';
import { lockAutomationRows, updateDetectionStates, type ZoneAutomation } from './automation.repo.ts';
import { marginsOf, stateOf } from './detection-state.ts';
import type { ZoneLock } from './lock-exit.ts';
import type { SafetyCloses } from './safety-closes.ts';

/** Zones remembered as having their row; past this the memory starts again. */
const ROWS_KNOWN_MEMORY = 100_000;

/**
 * What detection reads of a stored telemetry reading (the telemetry module's `StoredReading`).
 * `placedAt` is its end on the server's time line (docs/automation.md "Device clocks"): detection
 * orders, judges and times readings by it, never by the device's `measuredAt`.
 */
export type AutomationReading = FlowReading & { zoneId: string; flowboxId: string; placedAt: Date };

/** Detection (spec §3, §4): each committed batch of readings judged against its zone's margins. */
export class DetectionListener {
  /**
   * Zones whose row exists (rows go only with their zone): a batch of theirs skips the insert, one
   * query less on every batch. A zone the lock does not find after all (remembered from a batch
   * that rolled back) gets its row then.
   */
  private readonly rowsKnown = new Set<string>();

  constructor(
    private readonly ctx: Context,
    private readonly zoneLock: ZoneLock,
    private readonly safetyCloses: SafetyCloses,
    private readonly raiseAlert: RaiseAlert,
  ) {}

  /** The telemetry listener (packages/server/src/telemetry): detection in the batch's transaction. */
  listener() {
    const transactionOf = new WeakMap<readonly AutomationReading[], Db>();
    return {
      name: 'automatic-closing',
      inTransaction: (tx: Db, readings: readonly AutomationReading[]) => {
        transactionOf.set(readings, tx);
        return this.detectInTransaction(tx, readings);
      },
      afterCommit: (readings: readonly AutomationReading[]) => {
        const tx = transactionOf.get(readings);
        return tx ? this.safetyCloses.sendQueued(tx) : undefined;
      },
    };
  }

  /**
   * Feeds each zone's new readings to its detector, with the zone's row locked so that batches of
   * two instances take turns (DESIGN.md §5: the state is in the database, any instance continues).
   */
  async detectInTransaction(tx: Db, readings: readonly AutomationReading[]): Promise<void> {
    const byZone = new Map<string, AutomationReading[]>();
    for (const reading of readings) {
      const list = byZone.get(reading.zoneId) ?? [];
      list.push(reading);
      byZone.set(reading.zoneId, list);
    }
    const now = this.ctx.now();
    const zoneIds = [...byZone.keys()];
    const missing = zoneIds.filter((id) => !this.rowsKnown.has(id));
    let locked = await lockAutomationRows(tx, zoneIds, missing);
    // A row remembered from a batch that rolled back: create it after all.
    if (locked.length < zoneIds.length) locked = await lockAutomationRows(tx, zoneIds);
    const states: { zoneId: string; state: DetectionState }[] = [];
    for (const found of locked) {
      const zoneReadings = byZone.get(found.scope.zoneId)!;
      zoneReadings.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime());
      states.push({ zoneId: found.scope.zoneId, state: await this.detectZone(tx, found, zoneReadings, now) });
    }
    await updateDetectionStates(tx, states, now);
    if (this.rowsKnown.size >= ROWS_KNOWN_MEMORY) this.rowsKnown.clear();
    for (const found of locked) this.rowsKnown.add(found.scope.zoneId);
  }

  private async detectZone(
    tx: Db,
    found: ZoneAutomation,
    readings: readonly AutomationReading[],
    now: Date,
  ): Promise<DetectionState> {
    const margins = marginsOf(found.automation);
    const zone = {
      profile: found.zone.profile,
      openingHours: found.zone.openingHours ?? found.building.openingHours,
      timezone: found.building.timezone,
    };
    let state = stateOf(found.automation);
    let current = found;
    for (const reading of readings) {
      // On the server's time line: a device's clock, fast, slow or pulled back, changes nothing.
      const placed = { ...reading, measuredAt: reading.placedAt };
      const effective = effectiveMargins(margins, zone, reading.placedAt);
      const verdict = detect(state, placed, effective, now);
      state = verdict.state;
      if (verdict.late) continue;
      if (verdict.crossed)
        current = await this.onMarginCrossed(
          tx,
          current,
          state,
          { trigger: verdict.crossed, effective },
          now,
        );
      if (verdict.leak) await this.raiseLeak(tx, current, state, 'continuous_flow', reading.flowboxId);
      const flowing = reading.volumeMl > 0 || reading.flowS > 0;
      // spec §4 leak-detection mode: nobody should draw water, so any flow is a leak.
      if (flowing && found.zone.leakDetectionMode)
        await this.raiseLeak(tx, current, state, 'leak_detection_mode', reading.flowboxId);
    }
    return state;
  }

  /**
   * A continuous-flow event went past a margin. With automatic closing on (and the zone not in
   * maintenance), the water closes at once and the zone locks; otherwise an alert only.
   */
  private async onMarginCrossed(
    tx: Db,
    found: ZoneAutomation,
    state: DetectionState,
    { trigger, effective }: { trigger: Trigger; effective: Margins },
    now: Date,
  ): Promise<ZoneAutomation> {
    // The margin as it applied (off-hours margins are smaller), so the alert can say what was passed.
    const details = {
      trigger,
      event_started_at: state.eventStartedAt?.toISOString() ?? null,
      volume_l: state.eventVolumeMl / 1000,
      flow_minutes: Math.round(state.eventFlowS / 60),
      flow_s: state.eventFlowS,
      margin_volume_l: effective.volumeMl === null ? null : effective.volumeMl / 1000,
      margin_minutes: effective.flowS === null ? null : Math.round(effective.flowS / 60),
    };
    const closes =
      found.automation.automaticClosingEnabled && !found.zone.maintenanceMode && !found.automation.lockedAt;
    if (!closes) {
      const category = found.automation.lockedAt
        ? 'abnormal_water_consumption_with_ac'
        : 'abnormal_water_consumption_no_ac';
      await this.raiseAlert(tx, { category, scope: found.scope, cause: 'abnormal_consumption', details });
      return found;
    }
    return this.zoneLock.lock(tx, found, trigger, details, now);
  }

  private async raiseLeak(
    tx: Db,
    found: ZoneAutomation,
    state: DetectionState,
    cause: 'continuous_flow' | 'leak_detection_mode',
    flowboxId: string,
  ): Promise<void> {
    await this.raiseAlert(tx, {
      category: 'leakage_detection',
      scope: found.scope,
      flowboxId,
      cause,
      details: {
        event_started_at: state.eventStartedAt?.toISOString() ?? null,
        volume_l: state.eventVolumeMl / 1000,
        flow_minutes: Math.round(state.eventFlowS / 60),
        flow_s: state.eventFlowS,
      },
    });
  }
}
