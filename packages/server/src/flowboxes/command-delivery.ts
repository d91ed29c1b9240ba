import {
  COMMAND_RETRY_S,
  PROTOCOL_VERSION,
  type Ack,
  type AutotestResult,
  type EventAction,
  type FlowboxCommandName,
} from '@flowbox/shared';
import type { Actor } from '../access/access.ts';
import { autotestAlert, valveCommandAlert } from '../alerts/index.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import type { DeviceLink } from '../devices/index.ts';
import { recordEvent } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import { commandInput, isApiCommand, protocolCommandOf, toApiCommand } from './command-forms.ts';
import {
  claimDueCommands,
  completeAutotest,
  lockDeviceCommand,
  OPEN_STATUSES,
  updateCommand,
  type ApiCommandRow,
  type CommandRow,
} from './commands.repo.ts';
import type { FirmwareHooks } from './firmware-hooks.ts';
import { findFlowboxById } from './flowboxes.repo.ts';

/** The activity-log line of a command carried out; an autotest is logged with its result instead. */
const DONE_ACTION: Record<Exclude<FlowboxCommandName, 'autotest'>, EventAction> = {
  valve_open: 'valve_opened',
  valve_close: 'valve_closed',
  maintenance_on: 'maintenance_enabled',
  maintenance_off: 'maintenance_disabled',
  leak_detection_on: 'leak_detection_enabled',
  leak_detection_off: 'leak_detection_disabled',
  reboot: 'rebooted',
};

const AUTOTEST_ACTION: Record<AutotestResult, EventAction> = {
  none: 'autotest_none_detected',
  all_succeeded: 'autotest_succeeded',
  some_skipped: 'autotest_some_skipped',
  failed: 'autotest_failed',
};

/** How many due commands one pass claims; the rest wait for the next pass. */
const CLAIM_BATCH = 100;

/**
 * Commands on their way to the devices (issue #4, DESIGN.md §3): each is published QoS 1 and re-sent
 * every COMMAND_RETRY_S until the device acknowledges it or it expires; its outcome is logged,
 * alerted and sent live. Each command row is its own durable job: `dispatchDue` claims due rows
 * with FOR UPDATE SKIP LOCKED, so with several instances each attempt is made once, and a restart
 * picks up where the last one stopped.
 */
export class CommandDelivery {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
    /** The firmware domain's ears on `update_firmware` answers (CommandsService.firmware). */
    private readonly firmware: FirmwareHooks,
  ) {}

  /**
   * One pass of the command job: sends what is due, expires what is late. Safe to run on every
   * instance at once: a row locked by one pass is skipped by the others.
   */
  async dispatchDue(): Promise<number> {
    const now = this.ctx.now();
    return this.ctx.db.transaction(async (tx) => {
      const due = await claimDueCommands(tx, now, CLAIM_BATCH);
      for (const { command, serial } of due) {
        if (command.expiresAt <= now) await this.finish(tx, command, 'expired', null, now);
        else if (command.status === 'acked') await this.waitUntilExpiry(tx, command);
        else await this.send(tx, command, serial, now);
      }
      return due.length;
    });
  }

  /** An acknowledgement from the device; only its own commands, and a final answer only once. */
  async acknowledge(serial: string, ack: Ack): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      const command = await lockDeviceCommand(tx, ack.command_id, serial);
      if (!command || !(OPEN_STATUSES as readonly string[]).includes(command.status)) return;
      if (!isApiCommand(command)) return this.answerFirmware(tx, command, ack.result, ack.reason, now);
      if (ack.result === 'accepted') {
        const row = await updateCommand(tx, command.id, {
          status: 'acked',
          nextAttemptAt: command.expiresAt,
        });
        await this.notifyById(tx, row as ApiCommandRow);
        return;
      }
      const result = ack.result === 'refused' ? { reason: ack.reason } : null;
      await this.finish(tx, command, ack.result, result, now);
    });
  }

  /** An autotest's result (a device event): the command's outcome, logged once. */
  async recordAutotest(
    db: Db,
    located: LocatedFlowbox,
    commandId: string | null,
    outcome: { result: AutotestResult; checks: unknown[] },
    at: Date,
  ): Promise<void> {
    const command = commandId
      ? await completeAutotest(db, commandId, located.flowbox.id, outcome, at)
      : undefined;
    await recordEvent(db, at, {
      action: AUTOTEST_ACTION[outcome.result],
      object: 'flowbox',
      objectId: located.flowbox.id,
      objectLabel: located.flowbox.serial,
      scope: located.scope,
      by: command?.issuedBy ? { id: command.issuedBy, name: command.issuedByName ?? '' } : null,
      origin: command ? command.origin : 'device',
    });
    await autotestAlert(db, located, outcome.result, at);
    if (command) await this.notify(db, located, command);
  }

  /** An `update_firmware` answer: the command's status here, the update's state in the firmware domain. */
  private async answerFirmware(
    db: Db,
    command: CommandRow,
    answer: Ack['result'],
    reason: string | null,
    now: Date,
  ): Promise<void> {
    await updateCommand(
      db,
      command.id,
      answer === 'accepted'
        ? { status: 'acked', nextAttemptAt: command.expiresAt }
        : { status: answer, result: reason ? { reason } : null, completedAt: now },
    );
    await this.firmware.commandAnswered(db, command, answer, reason, now);
  }

  private async send(db: Db, command: CommandRow, serial: string, now: Date): Promise<void> {
    const protocol = isApiCommand(command)
      ? protocolCommandOf(commandInput(command))
      : { name: command.name, params: command.params };
    const sent = this.link.send(serial, 'commands', {
      v: PROTOCOL_VERSION,
      id: command.id,
      name: protocol.name,
      params: protocol.params,
      issued_at: command.issuedAt.toISOString(),
      expires_at: command.expiresAt.toISOString(),
    });
    // No broker attached yet (start-up): the command stays due for the next pass.
    if (!sent) return;
    const next = new Date(Math.min(now.getTime() + COMMAND_RETRY_S * 1000, command.expiresAt.getTime()));
    const row = await updateCommand(db, command.id, {
      status: 'sent',
      attempts: command.attempts + 1,
      lastSentAt: now,
      nextAttemptAt: next,
    });
    if (command.status === 'pending' && isApiCommand(row)) await this.notifyById(db, row);
  }

  /** Accepted but not finished (a long autotest): nothing to resend, it expires at its expiry. */
  private async waitUntilExpiry(db: Db, command: CommandRow): Promise<void> {
    await updateCommand(db, command.id, { nextAttemptAt: command.expiresAt });
  }

  /** A command's end: its status, its activity-log line, its alert when it failed, the live message. */
  async finish(
    db: Db,
    command: CommandRow,
    status: 'done' | 'refused' | 'expired',
    result: Record<string, unknown> | null,
    now: Date,
    { alerting = true, withdrawnBy }: { alerting?: boolean; withdrawnBy?: Pick<Actor, 'id' | 'name'> } = {},
  ): Promise<void> {
    if (!isApiCommand(command))
      return this.answerFirmware(db, command, status, result?.reason ? String(result.reason) : null, now);
    const row = (await updateCommand(db, command.id, { status, result, completedAt: now })) as ApiCommandRow;
    const located = await findFlowboxById(db, command.flowboxId);
    if (!located) return;
    const action =
      status === 'done' ? (command.name === 'autotest' ? null : DONE_ACTION[command.name]) : null;
    const logged =
      status === 'refused' ? 'command_refused' : status === 'expired' ? 'command_expired' : action;
    if (logged)
      await recordEvent(db, now, {
        action: logged,
        object: 'flowbox',
        objectId: located.flowbox.id,
        objectLabel: located.flowbox.serial,
        scope: located.scope,
        by:
          withdrawnBy ??
          (command.issuedBy ? { id: command.issuedBy, name: command.issuedByName ?? '' } : null),
        origin: withdrawnBy ? 'web' : status === 'expired' ? 'system' : command.origin,
        // Which command did not happen, and why (the log has no free-text column).
        changedFields:
          status === 'done' ? [] : [command.name, ...(result?.reason ? [String(result.reason)] : [])],
      });
    if (alerting) await valveCommandAlert(db, located, command.name, status, now);
    await this.notify(db, located, row);
  }

  private async notifyById(db: Db, command: ApiCommandRow): Promise<void> {
    const located = await findFlowboxById(db, command.flowboxId);
    if (located) await this.notify(db, located, command);
  }

  /** The command as the screens show it, sent live to whoever may see its zone. */
  notify(db: Db, located: LocatedFlowbox, command: ApiCommandRow): Promise<void> {
    return notifyLive(db, {
      type: 'command',
      command: toApiCommand(command),
      customer_id: located.scope.customerId,
      site_id: located.scope.siteId,
      zone_id: located.scope.zoneId,
    });
  }
}
