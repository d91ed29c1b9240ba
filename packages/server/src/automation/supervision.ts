import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { valveUnconfirmedCause } from '../alerts/index.ts';
import { valveClosesSince } from '../flowboxes/index.ts';
import type { RaiseAlert } from './alerting.ts';
import { claimUnconfirmedLocks, updateAutomation, type ZoneAutomation } from './automation.repo.ts';
import type { SafetyCloses } from './safety-closes.ts';
import { publishAutomation, readyFlowboxes } from './zone-automation.ts';

/** Unconfirmed this long after triggering: a flowbox_dysfunction alert (the valve did not answer). */
export const SAFETY_CONFIRM_S = 60;
/** Locked zones one supervision pass looks at. */
const SUPERVISE_BATCH = 100;

/** The supervision of a locked zone's safety closes until every flowbox confirms. */
export class SafetySupervision {
  constructor(
    private readonly ctx: Context,
    private readonly safetyCloses: SafetyCloses,
    private readonly raiseAlert: RaiseAlert,
  ) {}

  /**
   * One pass of the supervision job (DESIGN.md §3 "safety commands are re-sent until confirmed"):
   * for each locked zone not yet confirmed, a `done` close from every flowbox confirms it; a flowbox
   * whose close expired or was refused gets a fresh one; past SAFETY_CONFIRM_S without confirmation,
   * a flowbox_dysfunction alert. Claimed with SKIP LOCKED: one instance per zone and pass.
   */
  async pass(): Promise<number> {
    const now = this.ctx.now();
    let transaction: Db | undefined;
    const count = await this.ctx.db.transaction(async (tx) => {
      transaction = tx;
      const locked = await claimUnconfirmedLocks(tx, SUPERVISE_BATCH);
      for (const found of locked) await this.superviseZone(tx, found, now);
      return locked.length;
    });
    if (transaction) await this.safetyCloses.sendQueued(transaction);
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
      await publishAutomation(tx, { ...found, automation: row });
      return;
    }
    for (const flowbox of unconfirmed) {
      const open = closes.some(
        (c) => c.flowboxId === flowbox.flowbox.id && ['pending', 'sent', 'acked'].includes(c.status),
      );
      if (!open) await this.safetyCloses.issue(tx, flowbox, now);
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
}
