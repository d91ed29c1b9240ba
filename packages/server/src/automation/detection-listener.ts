import type { DetectionState } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { RaiseAlert } from './alerting.ts';
import type { AwayModes } from './away-mode.ts';
import {
  dueHeldZones,
  lockAutomationRows,
  updateDetectionStates,
  type ZoneAutomation,
} from './automation.repo.ts';
import { rulesOf, stateOf } from './detection-state.ts';
import type { ZoneLock } from './lock-exit.ts';
import type { SafetyCloses } from './safety-closes.ts';
import { crossingDetails, decideZoneBatch, leakDetails, type AutomationReading } from './zone-decisions.ts';

export type { AutomationReading } from './zone-decisions.ts';

/** Zones remembered as having their row; past this the memory starts again. */
const ROWS_KNOWN_MEMORY = 100_000;
/** Zones judged by one pass of the sweep of held readings (the rest wait for the next pass). */
export const HELD_SWEEP_ZONES = 500;

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
    /** Away mode's rule, judged beside detection's decisions (which it leaves as they are). */
    private readonly away: AwayModes,
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
    // The batch's instant, stored as its readings' receipt: the backtest judges them at it too.
    const now = readings[0]?.committedAt ?? this.ctx.now();
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

  /**
   * The sweep of held readings (docs/automation.md "Whatever the delivery"): a zone whose reading
   * past a hole has waited HOLD_S is judged at once with no new reading, so a hole that never
   * fills delays a decision by HOLD_S at most, even when its flowbox then falls silent. Answers
   * how many zones were judged.
   */
  async sweepHeld(limit = HELD_SWEEP_ZONES): Promise<number> {
    const now = this.ctx.now();
    const due = await dueHeldZones(this.ctx.db, now, limit);
    if (due.length === 0) return 0;
    let transaction: Db | undefined;
    const judged = await this.ctx.db.transaction(async (tx) => {
      transaction = tx;
      const states: { zoneId: string; state: DetectionState }[] = [];
      for (const found of await lockAutomationRows(tx, due, [])) {
        // Another instance's sweep, or a batch, may have judged it while this one waited for the lock.
        const until = found.automation.heldUntil;
        if (!until || until > now) continue;
        states.push({ zoneId: found.scope.zoneId, state: await this.detectZone(tx, found, [], now) });
      }
      await updateDetectionStates(tx, states, now);
      return states.length;
    });
    if (transaction) await this.safetyCloses.sendQueued(transaction);
    return judged;
  }

  private async detectZone(
    tx: Db,
    found: ZoneAutomation,
    readings: readonly AutomationReading[],
    now: Date,
  ): Promise<DetectionState> {
    const { state, decisions } = decideZoneBatch(
      stateOf(found.automation),
      readings,
      rulesOf(found),
      found.automation.lockedAt !== null,
      now,
    );
    let current = found;
    for (const decision of decisions) {
      if (decision.kind === 'closing') {
        const { crossing } = decision;
        current = await this.zoneLock.lock(tx, current, crossing.trigger, crossingDetails(crossing), now);
      } else if (decision.cause === 'abnormal_consumption')
        await this.raiseAlert(tx, {
          category: decision.category,
          scope: current.scope,
          cause: decision.cause,
          details: crossingDetails(decision.crossing),
        });
      else
        await this.raiseAlert(tx, {
          category: decision.category,
          scope: current.scope,
          flowboxId: decision.leak.flowboxId ?? undefined,
          cause: decision.cause,
          details: leakDetails(decision.leak),
        });
    }
    await this.away.judge(tx, current, readings, now);
    return state;
  }
}
