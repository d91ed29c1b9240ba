import type { FirmwareSkipReason } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import { findFlowboxById } from '../flowboxes/index.ts';
import {
  haltOnSkip,
  haltRollout,
  notifyRollout,
  recordRolloutEvent,
  rolloutOutcome,
} from './rollouts.halt.ts';
import {
  activeCount,
  claimRunningRollouts,
  dueScheduled,
  lastWave,
  openInWave,
  patchRollout,
  postpone,
  scheduledInWave,
  scheduleWave,
  tryLockFlowbox,
  type RolloutRow,
} from './rollouts.repo.ts';
import { findImage, imageReleasedTo, type ImageRow, type UpdateRow } from './updates.repo.ts';
import { moveUpdate, SYSTEM } from './updates.moves.ts';
import type { FirmwareUpdatesService } from './updates.service.ts';

/** Rollouts one pass advances; the others wait for the next pass (or another instance's). */
const CLAIM_BATCH = 20;
/** A device waiting for the building to close is looked at again this much later. */
const OPENING_HOURS_RECHECK_MS = 10 * 60_000;

/**
 * The rollout job (docs/firmware.md "Rollouts"): each pass claims running rollouts (FOR UPDATE SKIP
 * LOCKED, so with several instances each rollout is advanced by one pass at a time and no device
 * is started twice), starts the devices whose turn came within the concurrency, checks each
 * device's guards when its turn comes, opens the next wave once the current one is finished, and
 * completes the rollout after its last wave.
 */
export class RolloutRunner {
  constructor(
    private readonly ctx: Context,
    private readonly updates: FirmwareUpdatesService,
    private readonly commands: CommandsService,
    /** Draws each wave's start delays; tests seed it. */
    private readonly random: () => number = Math.random,
  ) {}

  /** One pass: returns how many devices it started. */
  async advanceAll(): Promise<number> {
    const now = this.ctx.now();
    const started = await this.ctx.db.transaction(async (tx) => {
      let count = 0;
      for (const rollout of await claimRunningRollouts(tx, CLAIM_BATCH))
        count += await this.advance(tx, rollout, now);
      return count;
    });
    if (started > 0) await this.commands.dispatchDue();
    return started;
  }

  /** Opens a wave: its devices' start delays drawn in [0, start_jitter_s] from now. */
  async openWave(db: Db, rollout: RolloutRow, wave: number, now: Date): Promise<void> {
    await scheduleWave(db, rollout.id, wave, now, rollout.startJitterS, Math.floor(this.random() * 2 ** 31));
  }

  private async advance(tx: Db, rollout: RolloutRow, now: Date): Promise<number> {
    const image = await findImage(tx, rollout.imageId);
    if (!image || image.status === 'withdrawn') {
      await haltRollout(tx, rollout, 'image_withdrawn', { version: image?.version ?? '' }, now);
      return 0;
    }
    const wave = rollout.currentWave;
    if ((await openInWave(tx, rollout.id, wave)) === 0) {
      await this.nextWave(tx, rollout, wave, now);
      return 0;
    }
    const slots = rollout.maxConcurrent - (await activeCount(tx, rollout.id));
    if (slots <= 0) return 0;
    let started = 0;
    for (const { update } of await dueScheduled(tx, rollout.id, wave, now, slots)) {
      const turn = await this.takeTurn(tx, rollout, update, image, now);
      if (turn === 'halted') break;
      if (turn === 'started') started += 1;
    }
    return started;
  }

  /** The wave is finished and did not halt the rollout: the next one opens, or the rollout completes. */
  private async nextWave(tx: Db, rollout: RolloutRow, wave: number, now: Date): Promise<void> {
    const waves = await lastWave(tx, rollout.id);
    if (wave < waves) {
      const next = await patchRollout(tx, rollout.id, { currentWave: wave + 1, updatedAt: now });
      await this.openWave(tx, next, wave + 1, now);
      const size = await scheduledInWave(tx, rollout.id, wave + 1);
      await recordRolloutEvent(tx, next, 'rollout_wave_started', null, now, [
        `wave=${wave + 1}`,
        `waves=${waves}`,
        `flowboxes=${size}`,
      ]);
      await notifyRollout(tx, next);
      return;
    }
    const done = await patchRollout(tx, rollout.id, { state: 'completed', finishedAt: now, updatedAt: now });
    await recordRolloutEvent(
      tx,
      done,
      'rollout_completed',
      null,
      now,
      await rolloutOutcome(tx, rollout.id, ['succeeded', 'failed', 'skipped']),
    );
    await notifyRollout(tx, done);
  }

  /** A device's turn: its guards, then its update starts; or it waits, or its skip halts the rollout. */
  private async takeTurn(
    tx: Db,
    rollout: RolloutRow,
    update: UpdateRow,
    image: ImageRow,
    now: Date,
  ): Promise<'started' | 'waiting' | 'halted'> {
    // A flowbox busy with a device message now is left for the next pass, still due: waiting for it
    // while holding the rollout could deadlock with that message's halt check (docs/firmware.md
    // "Lock order").
    if (!(await tryLockFlowbox(tx, update.flowboxId))) return 'waiting';
    const located = await findFlowboxById(tx, update.flowboxId);
    if (!located) return 'waiting';
    const skip = await this.skipReason(tx, located, rollout, image, now);
    if (skip) {
      await moveUpdate(tx, update, located, { state: 'skipped', reason: skip }, now, SYSTEM);
      // One device fewer tries: the failures already in the wave may now be over the threshold.
      const halted = await haltOnSkip(tx, rollout, update.wave ?? rollout.currentWave, image.version, now);
      return halted ? 'halted' : 'waiting';
    }
    if (!rollout.duringOpeningHours && (await this.updates.withinOpeningHours(tx, located, now))) {
      await postpone(
        tx,
        update.id,
        new Date(now.getTime() + OPENING_HOURS_RECHECK_MS),
        'waiting_opening_hours',
      );
      return 'waiting';
    }
    await this.updates.launch(tx, update, located, image, now, SYSTEM);
    return 'started';
  }

  /**
   * Why the device is left out now its turn came, if it is: what was true when the rollout was
   * created may not be any more (docs/firmware.md "Guards").
   */
  private async skipReason(
    tx: Db,
    located: LocatedFlowbox,
    rollout: RolloutRow,
    image: ImageRow,
    now: Date,
  ): Promise<FirmwareSkipReason | null> {
    // Updated by other means meanwhile: an update from X to X could never succeed.
    if (located.flowbox.firmwareVersion === image.version) return 'already_on_version';
    if (!(await imageReleasedTo(tx, image, located.scope.customerId))) return 'not_released';
    if (!located.flowbox.connected || located.flowbox.pairingState !== 'ready') return 'offline';
    switch (await this.updates.refusalNow(tx, located, now, rollout.id)) {
      case 'errors.valve_command_pending':
        return 'valve_command_pending';
      case 'errors.firmware_zone_locked':
        return 'zone_locked';
      case 'errors.firmware_update_running':
        return 'already_updating';
      case 'errors.firmware_in_rollout':
        return 'in_other_rollout';
      case null:
        return null;
    }
  }
}
