import { isFirmwareFailure, waveBreachesThreshold, type RolloutHaltReason } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { rolloutHaltedAlert } from '../alerts/index.ts';
import { recordEvent } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import { findFlowboxById } from '../flowboxes/index.ts';
import {
  countByWave,
  haltWitness,
  lockRollout,
  patchRollout,
  waveFailures,
  type RolloutRow,
} from './rollouts.repo.ts';

/*
 * A rollout stops itself (docs/firmware.md "Automatic halt"): checked on each failure of one of its
 * devices, in the transaction that records the failure, so no device of a later wave can start
 * after the failure that breached the threshold; and on each device left out at its turn, since
 * that raises the failures' share of the devices that try.
 */

export async function haltOnFailure(
  db: Db,
  rolloutId: string,
  wave: number,
  failing: LocatedFlowbox,
  version: string,
  at: Date,
): Promise<void> {
  const rollout = await lockRollout(db, rolloutId);
  if (!rollout || (rollout.state !== 'running' && rollout.state !== 'paused')) return;
  const { failures, size } = await waveFailures(db, rolloutId, wave);
  if (!waveBreachesThreshold(failures, size, rollout.failureThresholdPct)) return;
  await haltRollout(db, rollout, 'failure_threshold', { failing, version }, at);
}

/**
 * A device of the wave its holder (the rollout job) has just left out at its turn: the rollout is
 * halted if this skip took the wave's failures over the threshold. A wave already over it was
 * halted by its failure and resumed by a user: a skip is no new failure (the next failure halts
 * it again). True when it halted.
 */
export async function haltOnSkip(
  db: Db,
  rollout: RolloutRow,
  wave: number,
  version: string,
  at: Date,
): Promise<boolean> {
  const { failures, size, failing } = await waveFailures(db, rollout.id, wave);
  const over = (tried: number) => waveBreachesThreshold(failures, tried, rollout.failureThresholdPct);
  if (!over(size) || over(size + 1)) return false;
  const located = failing ? await findFlowboxById(db, failing) : undefined;
  await haltRollout(
    db,
    rollout,
    'failure_threshold',
    { ...(located ? { failing: located } : {}), version },
    at,
  );
  return true;
}

/**
 * Halts the rollout with its reason: logged, alerted, told live. Every halt raises the alert: on the
 * zone of the device whose failure caused it, or, when no device did (the image withdrawn), on
 * one of those the halt stopped (`haltWitness`; a rollout halts only with some unfinished).
 */
export async function haltRollout(
  db: Db,
  rollout: RolloutRow,
  reason: RolloutHaltReason,
  cause: { failing?: LocatedFlowbox; version: string },
  at: Date,
): Promise<RolloutRow> {
  const halted = await patchRollout(db, rollout.id, { state: 'halted', haltReason: reason, updatedAt: at });
  await recordRolloutEvent(db, halted, 'rollout_halted', null, at, [
    reason,
    ...(await rolloutOutcome(db, rollout.id, ['succeeded', 'failed'])),
  ]);
  const witness = cause.failing ?? (await witnessOf(db, rollout));
  if (witness)
    await rolloutHaltedAlert(
      db,
      witness,
      { id: rollout.id, label: rollout.label, version: cause.version, reason },
      at,
    );
  await notifyRollout(db, halted);
  return halted;
}

async function witnessOf(db: Db, rollout: RolloutRow): Promise<LocatedFlowbox | undefined> {
  const flowboxId = await haltWitness(db, rollout.id);
  return flowboxId ? findFlowboxById(db, flowboxId) : undefined;
}

/** How many of the rollout's devices ended each way so far, by their update's final state. */
export type RolloutOutcome = 'succeeded' | 'failed' | 'skipped' | 'cancelled';

/**
 * The rollout's counts as its activity-log lines carry them (docs/firmware.md "Activity log"):
 * `name=value` in changed_fields, in the order asked for; one grouped query, whatever its size.
 */
export async function rolloutOutcome(
  db: Db,
  rolloutId: string,
  names: readonly RolloutOutcome[],
): Promise<string[]> {
  const counts: Record<RolloutOutcome, number> = { succeeded: 0, failed: 0, skipped: 0, cancelled: 0 };
  for (const { state, n } of await countByWave(db, rolloutId)) {
    if (state === 'success') counts.succeeded += n;
    else if (isFirmwareFailure(state)) counts.failed += n;
    else if (state === 'skipped') counts.skipped += n;
    else if (state === 'cancelled') counts.cancelled += n;
  }
  return names.map((name) => `${name}=${counts[name]}`);
}

/**
 * A line of the rollout's life, in its place's scope (none for the whole fleet: the provider's).
 * These lines stand for its devices' updates in the log, which holds no line per device but for
 * a failure (`logsStep`).
 */
export function recordRolloutEvent(
  db: Db,
  rollout: RolloutRow,
  action:
    | 'rollout_created'
    | 'rollout_wave_started'
    | 'rollout_paused'
    | 'rollout_resumed'
    | 'rollout_cancelled'
    | 'rollout_halted'
    | 'rollout_completed',
  by: { id: string; name: string } | null,
  at: Date,
  changedFields: string[] = [],
): Promise<void> {
  return recordEvent(db, at, {
    action,
    object: 'firmware_rollout',
    objectId: rollout.id,
    objectLabel: rollout.label,
    scope: {
      customerId: rollout.customerId,
      siteId: rollout.siteId,
      buildingId: rollout.buildingId,
      zoneId: rollout.zoneId,
    },
    by,
    origin: by ? 'web' : 'system',
    changedFields,
  });
}

export function notifyRollout(db: Db, rollout: RolloutRow): Promise<void> {
  return notifyLive(db, {
    type: 'firmware_rollout',
    rollout_id: rollout.id,
    state: rollout.state,
    customer_id: rollout.customerId,
    site_id: rollout.siteId,
  });
}
