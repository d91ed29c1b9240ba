import {
  awayState,
  judgeAway,
  localDateTime,
  localToInstant,
  type AwayMode,
  type AwayModeInput,
  type AwayPeriod,
  type AwayVerdict,
} from '@flowbox/shared';
import { requireAwayModeSet, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { recordChange, recordEvent } from '../events/index.ts';
import type { ZonePath } from '../http/params.ts';
import type { RaiseAlert } from './alerting.ts';
import { ensureAutomationRows, updateAutomation, type ZoneAutomation } from './automation.repo.ts';
import type { SafetyCloses } from './safety-closes.ts';
import { findZoneAutomation, publishAutomation, readyFlowboxes } from './zone-automation.ts';
import type { AutomationReading } from './zone-decisions.ts';

/** The cause of away mode's alert: one not resolved per zone, a flow repeated counts on it. */
export const AWAY_FLOW_CAUSE = 'away_flow';

/**
 * Away mode (issue 33, docs/automation.md "Away mode"): a zone's period away, set and switched off
 * by its end users and managers, and its rule judged on each committed batch of readings beside
 * detection (which it leaves as it decides): any water inside the period opens a leakage_detection
 * alert of cause `away_flow`, on basic zones too (asked for, not a premium view); with `close_on_flow`, the first fresh flow while away closes the water
 * through automatic closing's safety close, once a period, without locking the zone.
 */
export class AwayModes {
  constructor(
    private readonly ctx: Context,
    private readonly safetyCloses: SafetyCloses,
    private readonly raiseAlert: RaiseAlert,
  ) {}

  async info(actor: Actor, path: ZonePath): Promise<AwayMode> {
    requireZoneRead(actor, path);
    return toApiAway(await findZoneAutomation(this.ctx.db, path), this.ctx.now());
  }

  /** Sets (or replaces) the period, read in the building's time zone; it must end later than now. */
  async set(actor: Actor, path: ZonePath, input: AwayModeInput): Promise<AwayMode> {
    requireAwayModeSet(actor, path, input.close_on_flow);
    const found = await findZoneAutomation(this.ctx.db, path);
    const timezone = found.building.timezone;
    const from = localToInstant(input.from_date, input.from_time, timezone);
    const until = localToInstant(input.until_date, input.until_time, timezone);
    const now = this.ctx.now();
    // A local time moved by a clock change may make the period empty; one that ended is no period.
    if (until <= from) throw untilInvalid('validation.end_after_start');
    if (until <= now) throw untilInvalid('validation.end_in_future');
    return this.save(actor, found, now, {
      awayFrom: from,
      awayUntil: until,
      awayCloseOnFlow: input.close_on_flow,
      awaySetByName: actor.name,
      awaySetAt: now,
      awayClosedAt: null,
    });
  }

  /** Switches away mode off at once (coming home early); nothing to switch off answers as it is. */
  async clear(actor: Actor, path: ZonePath): Promise<AwayMode> {
    requireAwayModeSet(actor, path, false);
    const found = await findZoneAutomation(this.ctx.db, path);
    const now = this.ctx.now();
    if (!found.automation.awayFrom) return toApiAway(found, now);
    return this.save(actor, found, now, {
      awayFrom: null,
      awayUntil: null,
      awayCloseOnFlow: false,
      awaySetByName: null,
      awaySetAt: null,
      awayClosedAt: null,
    });
  }

  /**
   * The away rule on one zone's readings of a batch, in the batch's transaction (the zone's row is
   * locked): an alert for water inside the period, and the closing when the resident chose it.
   */
  async judge(
    tx: Db,
    found: ZoneAutomation,
    readings: readonly AutomationReading[],
    now: Date,
  ): Promise<void> {
    const period = awayPeriodOf(found);
    const verdict = judgeAway(period, readings, now);
    if (!period || !verdict) return;
    if (verdict.close) {
      for (const flowbox of await readyFlowboxes(tx, found)) await this.safetyCloses.issue(tx, flowbox, now);
      const row = await updateAutomation(tx, found.scope.zoneId, { awayClosedAt: now }, now);
      await recordEvent(tx, now, {
        action: 'away_closing',
        object: 'zone',
        objectId: found.scope.zoneId,
        objectLabel: found.zone.name,
        scope: found.scope,
        by: null,
        origin: 'system',
      });
      await publishAutomation(tx, { ...found, automation: row });
    }
    await this.raiseAlert(tx, {
      category: 'leakage_detection',
      scope: found.scope,
      flowboxId: verdict.first.flowboxId,
      cause: AWAY_FLOW_CAUSE,
      details: awayDetails(verdict, period, verdict.close || period.closedAt !== null),
      // The resident's own request, not a premium view of consumption: told on any zone.
      askedFor: true,
    });
  }

  private async save(
    actor: Actor,
    found: ZoneAutomation,
    now: Date,
    patch: Partial<ZoneAutomation['automation']>,
  ): Promise<AwayMode> {
    const cleared = patch.awayFrom === null;
    return this.ctx.db.transaction(async (tx) => {
      await ensureAutomationRows(tx, [found.scope.zoneId]);
      const row = await updateAutomation(tx, found.scope.zoneId, patch, now);
      const next = { ...found, automation: row };
      const away = toApiAway(next, now);
      await recordChange(tx, now, actor, {
        action: cleared ? 'away_mode_cleared' : 'away_mode_set',
        object: 'zone',
        objectId: found.scope.zoneId,
        objectLabel: found.zone.name,
        scope: found.scope,
        // The period as the building reads it, and the choice to close, for the log's line.
        changedFields: cleared
          ? []
          : [away.from_local!, away.until_local!, ...(away.close_on_flow ? ['close_on_flow'] : [])],
      });
      await publishAutomation(tx, next);
      return away;
    });
  }
}

function untilInvalid(message: 'validation.end_after_start' | 'validation.end_in_future'): AppError {
  return new AppError('errors.validation', {}, [{ path: 'until_date', message }]);
}

function awayPeriodOf(found: ZoneAutomation): AwayPeriod | null {
  const a = found.automation;
  if (!a.awayFrom || !a.awayUntil) return null;
  return { from: a.awayFrom, until: a.awayUntil, closeOnFlow: a.awayCloseOnFlow, closedAt: a.awayClosedAt };
}

/** What the away alert says (alertDetailsText, cause `away_flow`): the batch's water, the period, a closing. */
function awayDetails(verdict: AwayVerdict, period: AwayPeriod, closed: boolean) {
  const started = verdict.first.placedAt.getTime() - verdict.first.intervalS * 1000;
  return {
    event_started_at: new Date(Math.max(started, period.from.getTime())).toISOString(),
    volume_l: verdict.volumeMl / 1000,
    flow_minutes: Math.round(verdict.flowS / 60),
    flow_s: verdict.flowS,
    away_until: period.until.toISOString(),
    closed,
  };
}

export function toApiAway(found: ZoneAutomation, now: Date): AwayMode {
  const a = found.automation;
  const timezone = found.building.timezone;
  const period = awayPeriodOf(found);
  return {
    zone_id: found.scope.zoneId,
    state: awayState(period, now),
    from: a.awayFrom?.toISOString() ?? null,
    until: a.awayUntil?.toISOString() ?? null,
    from_local: a.awayFrom ? localDateTime(a.awayFrom, timezone) : null,
    until_local: a.awayUntil ? localDateTime(a.awayUntil, timezone) : null,
    timezone,
    close_on_flow: a.awayCloseOnFlow,
    set_by: a.awaySetByName,
    set_at: a.awaySetAt?.toISOString() ?? null,
    closed_at: a.awayClosedAt?.toISOString() ?? null,
  };
}
