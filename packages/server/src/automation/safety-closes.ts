import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';

/** A safety close lives this long; automation issues a fresh one until the device confirms. */
export const SAFETY_CLOSE_TTL_S = 300;

/**
 * The safety closes of detection and supervision: queued in the caller's transaction, sent as soon
 * as it commits.
 */
export class SafetyCloses {
  /**
   * The transactions that queued safety closes: once one commits, its closes go out at once. Per
   * transaction, since batches overlap: a flag shared by all would let one batch's after-commit
   * step clear it for another batch not yet committed, whose closes would then wait for the
   * command job's next pass.
   */
  private readonly closingTransactions = new WeakSet<Db>();

  constructor(private readonly commands: CommandsService) {}

  async issue(tx: Db, flowbox: LocatedFlowbox, now: Date): Promise<void> {
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
  async sendQueued(tx: Db): Promise<void> {
    if (!this.closingTransactions.has(tx)) return;
    this.closingTransactions.delete(tx);
    await this.commands.dispatchDue();
  }
}
