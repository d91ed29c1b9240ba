import {
  afterExit,
  detect,
  DURATION_MARGIN_BOUNDS,
  effectiveMargins,
  LITERS_PER_UNIT,
  VOLUME_MARGIN_BOUNDS,
  volumeMarginOutOfBounds,
  type AutomaticClosingSettings,
  type Automation,
  type DetectionState,
  type FlowReading,
  type Margins,
  type Trigger,
  type VolumeUnit,
} from '@flowbox/shared';
import { requireSiteManage, requireSiteRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { valveUnconfirmedCause } from '../alerts/index.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { recordChange, recordEvent } from '../events/index.ts';
import { openSystemClosesSince, valveClosesSince, listFlowboxes } from '../flowboxes/index.ts';
import type { ZonePath } from '../http/params.ts';
import { notifyLive } from '../live/index.ts';
import { findZoneRow } from '../zones/index.ts';
import type { RaiseAlert } from './alerting.ts';
import {
  claimUnconfirmedLocks,
  ensureAutomationRows,
  findAutomation,
  lockAutomationRows,
  updateAutomation,
  updateDetectionStates,
  type AutomationRow,
  type ZoneAutomation,
} from './automation.repo.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';

/** A safety close lives this long; automation issues a fresh one until the device confirms. */
export const SAFETY_CLOSE_TTL_S = 300;
/** Unconfirmed this long after triggering: a flowbox_dysfunction alert (the valve did not answer). */
export const SAFETY_CONFIRM_S = 60;
/** Zones remembered as having their row; past this the memory starts again. */
const ROWS_KNOWN_MEMORY = 100_000;
/** Locked zones one supervision pass looks at. */
const SUPERVISE_BATCH = 100;

/**
 * What detection reads of a stored telemetry reading (the telemetry module's `StoredReading`).
 * `placedAt` is its end on the server's time line (docs/automation.md "Device clocks"): detection
 * orders, judges and times readings by it, never by the device's `measuredAt`.
 */
export type AutomationReading = FlowReading & { zoneId: string; flowboxId: string; placedAt: Date };

/**
 * Automatic closing (spec §3, §4, §9; docs/automation.md): a zone's margins, detection on each
 * committed batch of readings, the safety close with its lock, and the exit by name.
 */
export class AutomationService {
  /**
   * The transactions that queued safety closes: once one commits, its closes go out at once. Per
   * transaction, since batches overlap: a flag shared by all would let one batch's after-commit
   * step clear it for another batch not yet committed, whose closes would then wait for the
   * command job's next pass.
   */
  private readonly closingTransactions = new WeakSet<Db>();
  /**
   * Zones whose row exists (rows go only with their zone): a batch of theirs skips the insert, one
   * query less on every batch. A zone the lock does not find after all (remembered from a batch
   * that rolled back) gets its row then.
   */
  private readonly rowsKnown = new Set<string>();

  constructor(
    private readonly ctx: Context,
    private readonly commands: CommandsService,
    private readonly raiseAlert: RaiseAlert,
  ) {}

  async info(actor: Actor, path: ZonePath): Promise<Automation> {
    requireSiteRead(actor, path.customerId, path.siteId);
    return toApiAutomation(await this.find(this.ctx.db, path));
  }

  async updateSettings(actor: Actor, path: ZonePath, input: AutomaticClosingSettings): Promise<Automation> {
    requireSiteManage(actor, path.customerId, path.siteId, 'automation.manage');
    const found = await this.find(this.ctx.db, path);
    if (found.automation.lockedAt) throw new AppError('errors.no_action_allowed');
    const unit = found.building.volumeUnit;
    const bounds = input.volume_margin === null ? null : volumeMarginOutOfBounds(input.volume_margin, unit);
    if (bounds)
      throw new AppError('errors.validation', {}, [
        { path: 'volume_margin', message: 'validation.between', params: bounds },
      ]);
    const now = this.ctx.now();
    const patch = {
      automaticClosingEnabled: input.automatic_closing_enabled,
      volumeMarginEnabled: input.volume_margin_enabled,
      volumeMargin: input.volume_margin === null ? null : String(input.volume_margin),
      volumeMarginUnit: input.volume_margin === null ? null : unit,
      durationMarginEnabled: input.duration_margin_enabled,
      durationMarginMinutes: input.duration_margin_minutes,
    };
    const before = toApiAutomation(found);
    const changed = (Object.keys(input) as (keyof AutomaticClosingSettings)[])
      .filter((key) => before[key] !== input[key])
      .sort();
    return this.ctx.db.transaction(async (tx) => {
      await ensureAutomationRows(tx, [path.zoneId]);
      const row = await updateAutomation(tx, path.zoneId, patch, now);
      await recordChange(tx, now, actor, {
        action: 'automatic_closing_updated',
        object: 'zone',
        objectId: path.zoneId,
        objectLabel: found.zone.name,
        scope: found.scope,
        changedFields: changed,
      });
      return this.publish(tx, { ...found, automation: row });
    });
  }

  /**
   * spec §4, §5, §9: a user leaves automatic closing by typing the zone's name. The zone is
   * unlocked (the valve stays closed until someone opens it), safety closes still on their way are
   * expired so that none closes the water again, and abnormal-volume detection rests for an hour.
   */
  async exit(actor: Actor, path: ZonePath, confirmName: string): Promise<Automation> {
    requireSiteManage(actor, path.customerId, path.siteId, 'automation.manage');
    const found = await this.find(this.ctx.db, path);
    if (!found.automation.lockedAt) throw new AppError('errors.automatic_closing_not_triggered');
    if (confirmName.trim() !== found.zone.name) throw namesMismatch();
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const state = afterExit(stateOf(found.automation), now);
      const row = await updateAutomation(
        tx,
        path.zoneId,
        { ...stateColumns(state), lockedAt: null, lockedBy: null, closeDysfunctionRaised: false },
        now,
      );
      const flowboxIds = (await listFlowboxes(tx, found.scope)).map((f) => f.flowbox.id);
      const onTheirWay = await openSystemClosesSince(tx, flowboxIds, found.automation.lockedAt!);
      // Withdrawn, not failed: no flowbox_dysfunction alert for closes the user called off.
      await this.commands.withdraw(tx, onTheirWay, 'automatic_closing_exited', now, actor);
      await recordChange(tx, now, actor, {
        action: 'automatic_closing_exited',
        object: 'zone',
        objectId: path.zoneId,
        objectLabel: found.zone.name,
        scope: found.scope,
      });
      return this.publish(tx, { ...found, automation: row });
    });
  }

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
        return tx ? this.sendQueuedClosings(tx) : undefined;
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
      const verdict = detect(state, placed, effectiveMargins(margins, zone, reading.placedAt), now);
      state = verdict.state;
      if (verdict.late) continue;
      if (verdict.crossed) current = await this.onMarginCrossed(tx, current, state, verdict.crossed, now);
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
    trigger: Trigger,
    now: Date,
  ): Promise<ZoneAutomation> {
    const details = {
      trigger,
      event_started_at: state.eventStartedAt?.toISOString() ?? null,
      volume_l: state.eventVolumeMl / 1000,
      flow_minutes: Math.round(state.eventFlowS / 60),
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
    const row = await updateAutomation(
      tx,
      found.scope.zoneId,
      { lockedAt: now, lockedBy: trigger, closeConfirmedAt: null, closeDysfunctionRaised: false },
      now,
    );
    for (const flowbox of await readyFlowboxes(tx, found)) await this.issueSafetyClose(tx, flowbox, now);
    await recordEvent(tx, now, {
      action: 'automatic_closing_triggered',
      object: 'zone',
      objectId: found.scope.zoneId,
      objectLabel: found.zone.name,
      scope: found.scope,
      by: null,
      origin: 'system',
      changedFields: [trigger],
    });
    await this.raiseAlert(tx, {
      category: 'abnormal_water_consumption_with_ac',
      scope: found.scope,
      cause: 'automatic_closing',
      details,
    });
    const next = { ...found, automation: row };
    await this.publish(tx, next);
    return next;
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
      },
    });
  }

  private async issueSafetyClose(tx: Db, flowbox: LocatedFlowbox, now: Date): Promise<void> {
    await this.commands.queueSystem(
      tx,
      flowbox,
      'valve_close',
      now,
      new Date(now.getTime() + SAFETY_CLOSE_TTL_S * 1000),
    );
    this.closingTransactions.add(tx);
  }

  /** After `tx` commits: its safety closes go out now, not at the command job's next pass. */
  async sendQueuedClosings(tx: Db): Promise<void> {
    if (!this.closingTransactions.has(tx)) return;
    this.closingTransactions.delete(tx);
    await this.commands.dispatchDue();
  }

  /**
   * One pass of the supervision job (DESIGN.md §3 "safety commands are re-sent until confirmed"):
   * for each locked zone not yet confirmed, a `done` close from every flowbox confirms it; a flowbox
   * whose close expired or was refused gets a fresh one; past SAFETY_CONFIRM_S without confirmation,
   * a flowbox_dysfunction alert. Claimed with SKIP LOCKED: one instance per zone and pass.
   */
  async superviseSafetyCloses(): Promise<number> {
    const now = this.ctx.now();
    let transaction: Db | undefined;
    const count = await this.ctx.db.transaction(async (tx) => {
      transaction = tx;
      const locked = await claimUnconfirmedLocks(tx, SUPERVISE_BATCH);
      for (const found of locked) await this.superviseZone(tx, found, now);
      return locked.length;
    });
    if (transaction) await this.sendQueuedClosings(transaction);
    return count;
  }

  private async superviseZone(tx: Db, found: ZoneAutomation, now: Date): Promise<void> {
    const lockedAt = found.automation.lockedAt!;
    const flowboxes = await readyFlowboxes(tx, found);
    const closes = await valveClosesSince(
      tx,
      flowboxes.map((f) => f.flowbox.id),
      lockedAt,
    );
    const unconfirmed = flowboxes.filter(
      (f) => !closes.some((c) => c.flowboxId === f.flowbox.id && c.status === 'done'),
    );
    if (unconfirmed.length === 0) {
      const row = await updateAutomation(tx, found.scope.zoneId, { closeConfirmedAt: now }, now);
      await this.publish(tx, { ...found, automation: row });
      return;
    }
    for (const flowbox of unconfirmed) {
      const open = closes.some(
        (c) => c.flowboxId === flowbox.flowbox.id && ['pending', 'sent', 'acked'].includes(c.status),
      );
      if (!open) await this.issueSafetyClose(tx, flowbox, now);
    }
    const late = now.getTime() - lockedAt.getTime() >= SAFETY_CONFIRM_S * 1000;
    if (late && !found.automation.closeDysfunctionRaised) {
      for (const flowbox of unconfirmed)
        await this.raiseAlert(tx, {
          category: 'flowbox_dysfunction',
          scope: found.scope,
          flowboxId: flowbox.flowbox.id,
          flowboxSerial: flowbox.flowbox.serial,
          // The cause the command job raises when the close expires: one alert, the expiry counts.
          cause: valveUnconfirmedCause(flowbox.flowbox.id),
          details: { command: 'valve_close', locked_at: lockedAt.toISOString() },
        });
      await updateAutomation(tx, found.scope.zoneId, { closeDysfunctionRaised: true }, now);
    }
  }

  private async find(db: Db, path: ZonePath): Promise<ZoneAutomation> {
    if (!(await findZoneRow(db, path))) throw notFound();
    const found = await findAutomation(db, path.zoneId);
    if (!found) throw notFound();
    return found;
  }

  private async publish(db: Db, found: ZoneAutomation): Promise<Automation> {
    const automation = toApiAutomation(found);
    await notifyLive(db, {
      type: 'automation',
      automation,
      customer_id: found.scope.customerId,
      site_id: found.scope.siteId,
      zone_id: found.scope.zoneId,
    });
    return automation;
  }
}

async function readyFlowboxes(db: Db, found: ZoneAutomation): Promise<LocatedFlowbox[]> {
  return (await listFlowboxes(db, found.scope)).filter((f) => f.flowbox.pairingState === 'ready');
}

const litresPer = (unit: VolumeUnit) => Number(LITERS_PER_UNIT[unit]);

/** The margins of the settings, in millilitres and flowing seconds; a disabled one is null. */
function marginsOf(row: AutomationRow): Margins {
  const volume =
    row.volumeMarginEnabled && row.volumeMargin !== null && row.volumeMarginUnit
      ? Math.round(Number(row.volumeMargin) * litresPer(row.volumeMarginUnit) * 1000)
      : null;
  const duration =
    row.durationMarginEnabled && row.durationMarginMinutes !== null ? row.durationMarginMinutes * 60 : null;
  return { volumeMl: volume, flowS: duration };
}

function stateOf(row: AutomationRow): DetectionState {
  return {
    eventStartedAt: row.eventStartedAt,
    lastFlowAt: row.lastFlowAt,
    eventVolumeMl: row.eventVolumeMl,
    eventFlowS: row.eventFlowS,
    eventTriggered: row.eventTriggered,
    eventLeakRaised: row.eventLeakRaised,
    lastMeasuredAt: row.lastMeasuredAt,
    detectionBlockedUntil: row.detectionBlockedUntil,
  };
}

function stateColumns(state: DetectionState): Partial<AutomationRow> {
  return { ...state };
}

/** The volume margin in the building's unit today (it may have been entered in another). */
function displayedVolume(row: AutomationRow, unit: VolumeUnit): number | null {
  if (row.volumeMargin === null) return null;
  const from = row.volumeMarginUnit ?? unit;
  const value = (Number(row.volumeMargin) * litresPer(from)) / litresPer(unit);
  return Math.round(value * 10_000) / 10_000;
}

function toApiAutomation(found: ZoneAutomation): Automation {
  const row = found.automation;
  const unit = found.building.volumeUnit;
  return {
    zone_id: row.zoneId,
    automatic_closing_enabled: row.automaticClosingEnabled,
    volume_margin_enabled: row.volumeMarginEnabled,
    volume_margin: displayedVolume(row, unit),
    duration_margin_enabled: row.durationMarginEnabled,
    duration_margin_minutes: row.durationMarginMinutes,
    volume_unit: unit,
    volume_margin_bounds: VOLUME_MARGIN_BOUNDS[unit],
    duration_margin_bounds: { ...DURATION_MARGIN_BOUNDS },
    locked: row.lockedAt !== null,
    locked_at: row.lockedAt?.toISOString() ?? null,
    locked_by: row.lockedBy,
    close_confirmed_at: row.closeConfirmedAt?.toISOString() ?? null,
    detection_blocked_until: row.detectionBlockedUntil?.toISOString() ?? null,
    event: row.eventStartedAt
      ? {
          started_at: row.eventStartedAt.toISOString(),
          last_flow_at: (row.lastFlowAt ?? row.eventStartedAt).toISOString(),
          volume_l: row.eventVolumeMl / 1000,
          flow_minutes: Math.round(row.eventFlowS / 6) / 10,
        }
      : null,
  };
}
