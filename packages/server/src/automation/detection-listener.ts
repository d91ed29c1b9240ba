import {
  detectBatch,
  effectiveMargins,
  type Crossing,
  type DetectionState,
  type FlowReading,
  type Leak,
  type PastCrossing,
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
 * orders readings, tells fresh from stale and picks opening hours by it; `measuredAt`, the device's
 * clock, only measures the gaps between one flowbox's own readings ("Whatever the delivery").
 */
export type AutomationReading = Omit<FlowReading, 'flowboxId' | 'seq' | 'deviceAt' | 'live'> & {
  zoneId: string;
  flowboxId: string;
  /** Absent (a hand-made reading): gaps on the placed time line. */
  seq?: number;
  placedAt: Date;
  /** Absent: true. */
  live?: boolean;
};

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
    // On the server's time line; gaps between one flowbox's readings on its own clock.
    const fed: FlowReading[] = readings.map((r) => ({
      measuredAt: r.placedAt,
      deviceAt: r.measuredAt,
      live: r.live,
      flowboxId: r.flowboxId,
      seq: r.seq,
      intervalS: r.intervalS,
      volumeMl: r.volumeMl,
      flowS: r.flowS,
    }));
    const verdict = detectBatch(
      stateOf(found.automation),
      fed,
      (reading) => effectiveMargins(margins, zone, reading.measuredAt),
      now,
    );
    let current = found;
    // Events whose crossing became known only after their water had stopped: an alert, never a closing.
    for (const past of verdict.past) await this.raiseCrossing(tx, current, past);
    for (const leak of verdict.leaks) await this.raiseLeak(tx, current, leak, 'continuous_flow');
    if (verdict.crossing) current = await this.onMarginCrossed(tx, current, verdict.crossing, now);
    // spec §4 leak-detection mode: nobody should draw water, so any flow is a leak.
    const late = new Set(verdict.late);
    const flowing = readings.find((r, i) => (r.volumeMl > 0 || r.flowS > 0) && !late.has(fed[i]!));
    if (flowing && found.zone.leakDetectionMode)
      await this.raiseLeak(
        tx,
        current,
        {
          at: flowing.placedAt,
          flowboxId: flowing.flowboxId,
          seq: flowing.seq ?? null,
          eventStartedAt: verdict.state.eventStartedAt,
          volumeMl: verdict.state.eventVolumeMl,
          flowS: verdict.state.eventFlowS,
        },
        'leak_detection_mode',
      );
    return verdict.state;
  }

  /**
   * A continuous-flow event went past a margin. With automatic closing on (and the zone not in
   * maintenance), the water closes at once and the zone locks; otherwise an alert only.
   */
  private async onMarginCrossed(
    tx: Db,
    found: ZoneAutomation,
    crossing: Crossing,
    now: Date,
  ): Promise<ZoneAutomation> {
    const closes =
      found.automation.automaticClosingEnabled && !found.zone.maintenanceMode && !found.automation.lockedAt;
    if (!closes) {
      await this.raiseCrossing(tx, found, crossing);
      return found;
    }
    return this.zoneLock.lock(tx, found, crossing.trigger, crossingDetails(crossing), now);
  }

  /** The alert of a crossing that does not close the water (or whose water has stopped already). */
  private async raiseCrossing(
    tx: Db,
    found: ZoneAutomation,
    crossing: Crossing | PastCrossing,
  ): Promise<void> {
    const category = found.automation.lockedAt
      ? 'abnormal_water_consumption_with_ac'
      : 'abnormal_water_consumption_no_ac';
    await this.raiseAlert(tx, {
      category,
      scope: found.scope,
      cause: 'abnormal_consumption',
      details: crossingDetails(crossing),
    });
  }

  private async raiseLeak(
    tx: Db,
    found: ZoneAutomation,
    leak: Leak,
    cause: 'continuous_flow' | 'leak_detection_mode',
  ): Promise<void> {
    await this.raiseAlert(tx, {
      category: 'leakage_detection',
      scope: found.scope,
      flowboxId: leak.flowboxId ?? undefined,
      cause,
      details: {
        event_started_at: leak.eventStartedAt?.toISOString() ?? null,
        volume_l: leak.volumeMl / 1000,
        flow_minutes: Math.round(leak.flowS / 60),
        flow_s: leak.flowS,
      },
    });
  }
}

/**
 * What an abnormal-consumption alert or a lock says of its crossing: the event at the reading that
 * crossed, and the margin as it applied then (off-hours margins are smaller). An event known only
 * after it stopped says so (`reported: 'late'`, with when its flow ended).
 */
function crossingDetails(crossing: Crossing | PastCrossing) {
  const past = 'endedAt' in crossing;
  return {
    trigger: crossing.trigger,
    event_started_at: crossing.eventStartedAt?.toISOString() ?? null,
    volume_l: crossing.volumeMl / 1000,
    flow_minutes: Math.round(crossing.flowS / 60),
    flow_s: crossing.flowS,
    margin_volume_l: crossing.margins.volumeMl === null ? null : crossing.margins.volumeMl / 1000,
    margin_minutes: crossing.margins.flowS === null ? null : Math.round(crossing.margins.flowS / 60),
    ...(past ? { reported: 'late', event_ended_at: crossing.endedAt?.toISOString() ?? null } : {}),
  };
}
