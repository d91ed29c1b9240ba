import { COMMAND_DEFAULT_TTL_S, type Ack, type AutotestResult, type FlowboxCommand } from '@flowbox/shared';
import { requireCommand, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import type { DeviceLink } from '../devices/index.ts';
import { AppError, notFound } from '../errors.ts';
import { CommandDelivery } from './command-delivery.ts';
import {
  isApiCommand,
  isValveCommand,
  protocolCommandOf,
  toApiCommand,
  type CommandInput,
} from './command-forms.ts';
import {
  findCommand,
  insertCommand,
  listCommands,
  lockOpenCommands,
  valveCommandOnItsWay,
  type CommandRow,
} from './commands.repo.ts';
import { FirmwareHooks } from './firmware-hooks.ts';
import { findFlowbox, type FlowboxPath } from './flowboxes.repo.ts';

/** The `update_firmware` command's params (docs/firmware.md "Device protocol" step 1). */
export type FirmwareCommandParams = {
  update_id: string;
  version: string;
  file_name: string;
  size: number;
  sha256: string;
  url: string;
};

/**
 * Commands to flowboxes (issue #4, DESIGN.md §3): the ones users issue through the API and the ones
 * the system queues (a scheduled or automatic closing, a firmware update), each with an id and an
 * expiry, stored here and delivered by CommandDelivery (command-delivery.ts), which also hears the
 * devices' answers.
 */
export class CommandsService {
  /** The firmware domain's ears on `update_firmware` answers and firmware messages (app.ts registers it). */
  readonly firmware = new FirmwareHooks();
  private readonly delivery: CommandDelivery;

  constructor(
    private readonly ctx: Context,
    link: DeviceLink,
  ) {
    this.delivery = new CommandDelivery(ctx, link, this.firmware);
  }

  async issue(actor: Actor, path: FlowboxPath, input: CommandInput): Promise<FlowboxCommand> {
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
      await this.delivery.notify(tx, located, created);
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
    await this.delivery.notify(db, located, created);
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
      await this.delivery.finish(db, command, 'expired', { reason }, now, {
        alerting: false,
        withdrawnBy: by,
      });
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

  /** One pass of the command job (command-dispatch.job.ts); others call it to send at once. */
  dispatchDue(): Promise<number> {
    return this.delivery.dispatchDue();
  }

  /** An acknowledgement from the device (ingest). */
  acknowledge(serial: string, ack: Ack): Promise<void> {
    return this.delivery.acknowledge(serial, ack);
  }

  /** An autotest's result, a device event (ingest). */
  recordAutotest(
    db: Db,
    located: LocatedFlowbox,
    commandId: string | null,
    outcome: { result: AutotestResult; checks: unknown[] },
    at: Date,
  ): Promise<void> {
    return this.delivery.recordAutotest(db, located, commandId, outcome, at);
  }
}
