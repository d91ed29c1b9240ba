import { afterExit, type Automation, type Trigger, typedNameMatches } from '@flowbox/shared';
import { requireSiteManage, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch } from '../errors.ts';
import { recordChange, recordEvent } from '../events/index.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import { listFlowboxes, openSystemClosesSince } from '../flowboxes/index.ts';
import type { ZonePath } from '../http/params.ts';
import type { AutomationAlert, RaiseAlert } from './alerting.ts';
import { updateAutomation, type ZoneAutomation } from './automation.repo.ts';
import { stateColumns, stateOf } from './detection-state.ts';
import type { SafetyCloses } from './safety-closes.ts';
import { findZoneAutomation, publishAutomation, readyFlowboxes } from './zone-automation.ts';

/** Automatic closing's hold on a zone (spec §4, §9): the lock when it closes, the exit by name. */
export class ZoneLock {
  constructor(
    private readonly ctx: Context,
    private readonly commands: CommandsService,
    private readonly safetyCloses: SafetyCloses,
    private readonly raiseAlert: RaiseAlert,
  ) {}

  /** The water closes at once on every paired flowbox and the zone locks until a user exits. */
  async lock(
    tx: Db,
    found: ZoneAutomation,
    trigger: Trigger,
    details: AutomationAlert['details'],
    now: Date,
  ): Promise<ZoneAutomation> {
    const row = await updateAutomation(
      tx,
      found.scope.zoneId,
      { lockedAt: now, lockedBy: trigger, closeConfirmedAt: null, closeDysfunctionRaised: false },
      now,
    );
    for (const flowbox of await readyFlowboxes(tx, found)) await this.safetyCloses.issue(tx, flowbox, now);
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
    await publishAutomation(tx, next);
    return next;
  }

  /**
   * spec §4, §5, §9: a user leaves automatic closing by typing the zone's name. The zone is
   * unlocked (the valve stays closed until someone opens it), safety closes still on their way are
   * expired so that none closes the water again, and abnormal-volume detection rests for an hour.
   */
  async exit(actor: Actor, path: ZonePath, confirmName: string): Promise<Automation> {
    requireSiteManage(actor, path.customerId, path.siteId, 'automation.manage');
    const found = await findZoneAutomation(this.ctx.db, path);
    if (!found.automation.lockedAt) throw new AppError('errors.automatic_closing_not_triggered');
    if (!typedNameMatches(confirmName, found.zone.name)) throw namesMismatch();
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
      return publishAutomation(tx, { ...found, automation: row });
    });
  }
}
