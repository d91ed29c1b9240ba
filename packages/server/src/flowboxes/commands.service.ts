import {
  COMMAND_DEFAULT_TTL_S,
  COMMAND_RETRY_S,
  PROTOCOL_VERSION,
  type Ack,
  type AutotestResult,
  type CommandName,
  type EventAction,
  type FlowboxCommand,
  type FlowboxCommandCreateSchema,
  type FlowboxCommandName,
} from '@flowbox/shared';
import type { z } from 'zod';
import { requireCommand, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { AppError, notFound } from '../errors.ts';
import { recordEvent } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import type { DeviceLink } from '../devices/index.ts';
import {
  claimDueCommands,
  completeAutotest,
  findCommand,
  insertCommand,
  listCommands,
  lockDeviceCommand,
  lockOpenCommands,
  OPEN_STATUSES,
  updateCommand,
  valveCommandOnItsWay,
  type ApiCommandRow,
  type CommandRow,
} from './commands.repo.ts';
import { findFlowbox, findFlowboxById, type FlowboxPath } from './flowboxes.repo.ts';
import { autotestAlert, valveCommandAlert } from '../alerts/index.ts';
import { FirmwareHooks } from './firmware-hooks.ts';

type CreateInput = z.output<typeof FlowboxCommandCreateSchema>;
const isApiCommand = (row: CommandRow): row is ApiCommandRow => row.name !== 'update_firmware';

/** The `update_firmware` command's params (docs/firmware.md "Device protocol" step 1). */
export type FirmwareCommandParams = {
  update_id: string;
  version: string;
  file_name: string;
  size: number;
  sha256: string;
  url: string;
};

/** The protocol command (docs/protocol.md) that carries each command of the API. */
function protocolCommandOf(input: CreateInput): { name: CommandName; params: Record<string, unknown> } {
  switch (input.name) {
    case 'valve_open':
      return { name: 'open_valve', params: {} };
    case 'valve_close':
      return { name: 'close_valve', params: {} };
    case 'maintenance_on':
    case 'maintenance_off':
      return { name: 'set_maintenance_mode', params: { enabled: input.name === 'maintenance_on' } };
    case 'leak_detection_on':
      return {
        name: 'set_leak_detection_mode',
        params: { enabled: true, timeout_s: input.timeout_minutes * 60 },
      };
    case 'leak_detection_off':
      return { name: 'set_leak_detection_mode', params: { enabled: false } };
    case 'autotest':
      return { name: 'autotest', params: {} };
    case 'reboot':
      return { name: 'reboot', params: {} };
  }
}

const isValveCommand = (name: FlowboxCommandName) => name === 'valve_open' || name === 'valve_close';

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
 * Commands to flowboxes (issue #4, DESIGN.md §3): each has an id and an expiry, is published QoS 1
 * and re-sent every COMMAND_RETRY_S until the device acknowledges it or it expires. Each command row
 * is its own durable job: `dispatchDue` claims due rows with FOR UPDATE SKIP LOCKED, so with several
 * instances each attempt is made once, and a restart picks up where the last one stopped.
 */
export class CommandsService {
  /** The firmware domain's ears on `update_firmware` answers and firmware messages (app.ts registers it). */
  readonly firmware = new FirmwareHooks();

  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
  ) {}

  async issue(actor: Actor, path: FlowboxPath, input: CreateInput): Promise<FlowboxCommand> {
    requireCommand(actor, path, input.name);
    const located = await findFlowbox(this.ctx.db, path);
    if (!located) throw notFound();
    if (located.flowbox.pairingState !== 'ready') throw new AppError('errors.flowbox_not_ready');
    const now = this.ctx.now();
    const { params } = protocolCommandOf(input);
    const row = await this.ctx.db.transaction(async (tx) => {
      // One valve command at a time: a second one would race the first on the device, and the
      // screen could not say which of the two the valve's state answers.
      if (isValveCommand(input.name) && (await valveCommandOnItsWay(tx, located.flowbox.id, now)))
        throw new AppError('errors.valve_command_pending');
      const created = await insertCommand(tx, {
        flowboxId: located.flowbox.id,
        name: input.name,
        params,
        issuedBy: actor.id,
        issuedByName: actor.name,
        origin: 'web',
        issuedAt: now,
        expiresAt: new Date(now.getTime() + COMMAND_DEFAULT_TTL_S * 1000),
        nextAttemptAt: now,
        status: 'pending',
      });
      await this.notify(tx, located, created);
      return created;
    });
    await this.dispatchDue();
    const stored = await findCommand(this.ctx.db, row.id);
    return toApiCommand(stored && isApiCommand(stored) ? stored : row);
  }

  /**
   * A valve command the system decides (a scheduled closing): queued in the caller's transaction,
   * so it exists exactly when the decision does; the command job sends it and logs the device's
   * answer (origin system). Call `dispatchDue` after the commit to send it at once.
   */
  async queueSystem(
    db: Db,
    located: LocatedFlowbox,
    name: 'valve_open' | 'valve_close',
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    const created = await insertCommand(db, {
      flowboxId: located.flowbox.id,
      name,
      params: protocolCommandOf({ name }).params,
      origin: 'system',
      issuedAt: now,
      expiresAt,
      nextAttemptAt: now,
      status: 'pending',
    });
    await this.notify(db, located, created);
  }

  /**
   * A firmware update's command, queued in the caller's transaction with its update (sent, retried
   * and expired like every command; its answers go to `firmware`, which logs them as the update's
   * states). Not in the commands API: it is the update's, read through the firmware routes.
   */
  async queueFirmware(
    db: Db,
    flowboxId: string,
    params: FirmwareCommandParams,
    at: { now: Date; expiresAt: Date },
    origin: { origin: 'web' | 'system'; by: Pick<Actor, 'id' | 'name'> | null },
  ): Promise<CommandRow> {
    return insertCommand(db, {
      flowboxId,
      name: 'update_firmware',
      params,
      issuedBy: origin.by?.id ?? null,
      issuedByName: origin.by?.name ?? null,
      origin: origin.origin,
      issuedAt: at.now,
      expiresAt: at.expiresAt,
      nextAttemptAt: at.now,
      status: 'pending',
    });
  }

  /**
   * System commands no longer wanted (a user left automatic closing): finished as expired now and
   * logged with the reason, without a flowbox_dysfunction alert: the device did nothing wrong. When
   * a user's action withdraws them, the line is that user's, origin web, like the other lines of a
   * change a user makes; without one it is the system's.
   */
  async withdraw(
    db: Db,
    commandIds: readonly string[],
    reason: string,
    now: Date,
    by?: Pick<Actor, 'id' | 'name'>,
  ): Promise<void> {
    if (commandIds.length === 0) return;
    for (const command of await lockOpenCommands(db, commandIds))
      await this.finish(db, command, 'expired', { reason }, now, { alerting: false, withdrawnBy: by });
  }

  async list(actor: Actor, path: FlowboxPath): Promise<FlowboxCommand[]> {
    requireZoneRead(actor, path);
    const located = await findFlowbox(this.ctx.db, path);
    if (!located) throw notFound();
    return (await listCommands(this.ctx.db, located.flowbox.id, 50)).map(toApiCommand);
  }

  async info(actor: Actor, path: FlowboxPath, commandId: string): Promise<FlowboxCommand> {
    requireZoneRead(actor, path);
    const located = await findFlowbox(this.ctx.db, path);
    const row = await findCommand(this.ctx.db, commandId);
    if (!located || !row || row.flowboxId !== located.flowbox.id || !isApiCommand(row)) throw notFound();
    return toApiCommand(row);
  }

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

  private async finish(
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

  private notify(db: Db, located: LocatedFlowbox, command: ApiCommandRow): Promise<void> {
    return notifyLive(db, {
      type: 'command',
      command: toApiCommand(command),
      customer_id: located.scope.customerId,
      site_id: located.scope.siteId,
      zone_id: located.scope.zoneId,
    });
  }
}

/** The API input a stored command came from (its params keep the leak-detection timeout). */
function commandInput(command: ApiCommandRow): CreateInput {
  if (command.name === 'leak_detection_on')
    return { name: 'leak_detection_on', timeout_minutes: Number(command.params.timeout_s) / 60 };
  return { name: command.name };
}

function toApiCommand(row: ApiCommandRow): FlowboxCommand {
  return {
    id: row.id,
    flowbox_id: row.flowboxId,
    name: row.name,
    params: row.params,
    status: row.status,
    attempts: row.attempts,
    issued_at: row.issuedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    result: row.result,
    issued_by: row.issuedBy,
  };
}
