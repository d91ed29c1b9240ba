import {
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  isFinalFirmwareState,
  isFirmwareFailure,
  type EventOrigin,
  type FirmwareUpdateState,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { FlowboxScope, LocatedFlowbox } from '../db/scope.ts';
import { firmwareUpdateAlert } from '../alerts/index.ts';
import { recordEvent } from '../events/index.ts';
import { findFlowboxById } from '../flowboxes/index.ts';
import { notifyLive } from '../live/index.ts';
import { findRollout, finishScheduled, insertRolloutUpdates, lockScheduledOf } from './rollouts.repo.ts';
import { haltOnFailure, notifyRollout } from './rollouts.halt.ts';
import {
  insertSteps,
  lockUpdate,
  patchUpdate,
  type NewUpdateRow,
  type UpdateReason,
  type UpdateRow,
} from './updates.repo.ts';

type NewEvent = Parameters<typeof recordEvent>[2];
import { toApiUpdateSummary } from './updates.view.ts';

/*
 * An update's state changes (docs/firmware.md "What the server decides"), whoever decides them:
 * each one is a row of its history, a live message, an alert when it fails, for a rollout's device
 * the rollout's halt check, and, when someone needs it there, an activity-log line on the flowbox
 * with its origin (`logsStep`).
 */

export type Mover = { origin: EventOrigin; by: { id: string; name: string } | null };
export const DEVICE: Mover = { origin: 'device', by: null };
export const SYSTEM: Mover = { origin: 'system', by: null };

export type NextState = {
  state: FirmwareUpdateState;
  reason?: UpdateReason | null;
  progressPct?: number | null;
  bytes?: number | null;
};

export async function moveUpdate(
  db: Db,
  update: UpdateRow,
  located: LocatedFlowbox,
  next: NextState,
  at: Date,
  mover: Mover,
): Promise<UpdateRow> {
  const final = isFinalFirmwareState(next.state);
  const moved = await patchUpdate(db, update.id, {
    state: next.state,
    reason: next.reason ?? null,
    ...(next.progressPct !== undefined ? { progressPct: next.progressPct } : {}),
    ...(next.bytes !== undefined ? { bytes: next.bytes } : {}),
    stateChangedAt: at,
    ...(mover.origin === 'device' ? { lastMessageAt: at } : {}),
    ...(final ? { finishedAt: at } : {}),
  });
  await insertSteps(db, [
    {
      updateId: update.id,
      state: next.state,
      at,
      progressPct: moved.progressPct,
      reason: next.reason ?? null,
    },
  ]);
  if (logsStep(moved, next.state))
    await recordEvent(
      db,
      at,
      updateLine(located.flowbox, located.scope, { ...next, version: moved.targetVersion }, mover),
    );
  await notifyUpdate(db, moved, located);
  if (isFirmwareFailure(next.state) || next.state === 'success')
    await firmwareUpdateAlert(
      db,
      located,
      { state: next.state, version: moved.targetVersion, reason: next.reason ?? null },
      at,
    );
  if (moved.rolloutId && final) {
    if (isFirmwareFailure(next.state) && moved.wave !== null)
      await haltOnFailure(db, moved.rolloutId, moved.wave, located, moved.targetVersion, at);
    const rollout = await findRollout(db, moved.rolloutId);
    if (rollout) await notifyRollout(db, rollout);
  }
  return moved;
}

/**
 * Whether an update's new state is an activity-log line (docs/firmware.md "Activity log", issue 30):
 * the log tells what changed, not every step a device reports, which its update's history keeps. A
 * single update is logged when asked for and when it ends; a rollout's device only when its update
 * fails, which someone must look at (the rollout's own lines count the others).
 */
export function logsStep(update: Pick<UpdateRow, 'rolloutId'>, state: FirmwareUpdateState): boolean {
  if (update.rolloutId) return isFirmwareFailure(state);
  return state === 'requested' || isFinalFirmwareState(state);
}

/**
 * A new rollout's devices, waiting their turn or left out at once (docs/firmware.md "Rollouts"):
 * their updates and first history rows, a thousand a statement. No activity-log line per device:
 * the rollout's line counts them.
 */
export async function addRolloutDevices(
  db: Db,
  devices: { located: LocatedFlowbox; row: NewUpdateRow }[],
  at: Date,
): Promise<void> {
  await insertRolloutUpdates(
    db,
    devices.map((d) => d.row),
    at,
  );
}

/**
 * Cancels the rollout's waiting devices at once (docs/firmware.md "Rollouts", cancel): one UPDATE,
 * their history rows a thousand a statement. No message nor activity-log line per device: the
 * caller tells the rollout's change once, with how many it cancelled, and its page reads the
 * devices again on it (a waiting device is no flowbox card's running update).
 */
export async function cancelScheduled(db: Db, rolloutId: string, at: Date): Promise<number> {
  const waiting = await lockScheduledOf(db, rolloutId);
  if (waiting.length === 0) return 0;
  await finishScheduled(db, rolloutId, 'cancelled', at);
  await insertSteps(
    db,
    waiting.map((w) => ({ updateId: w.updateId, state: 'cancelled' as const, at })),
  );
  return waiting.length;
}

/** An update's activity-log line on its flowbox (docs/firmware.md): its state, version and reason. */
export function updateLine(
  flowbox: { id: string; serial: string },
  scope: FlowboxScope,
  step: { state: FirmwareUpdateState; version: string; reason?: UpdateReason | null },
  mover: Mover,
): NewEvent {
  return {
    action: 'firmware_update',
    object: 'flowbox',
    objectId: flowbox.id,
    objectLabel: flowbox.serial,
    scope,
    by: mover.by,
    origin: mover.origin,
    changedFields: [step.state, step.version, ...(step.reason ? [step.reason] : [])],
  };
}

export function notifyUpdate(db: Db, update: UpdateRow, located: LocatedFlowbox): Promise<void> {
  return notifyLive(db, {
    type: 'firmware_update',
    update: toApiUpdateSummary({ update, serial: located.flowbox.serial, scope: located.scope }),
    customer_id: located.scope.customerId,
    site_id: located.scope.siteId,
    zone_id: located.scope.zoneId,
  });
}

/** States in which the device may fetch the image (a first download or a resume). */
const DOWNLOADING: readonly FirmwareUpdateState[] = ['requested', 'requesting', 'started'];

/**
 * The download route's bookkeeping (docs/firmware.md "Device protocol" step 3): counts each
 * download request of the update (the first one and every resume, from byte 0 or not, `fromByte`
 * being where it starts) and answers whether it may proceed. One more than
 * FIRMWARE_DOWNLOAD_ATTEMPTS makes the update `block_download_failed` (origin system) and refuses
 * it, like any request for an update no longer downloading (the route answers 410).
 */
export async function recordDownloadStart(
  db: Db,
  updateId: string,
  fromByte: number,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const update = await lockUpdate(tx, updateId);
    if (!update || !DOWNLOADING.includes(update.state)) return false;
    const attempts = update.downloadAttempts + 1;
    const counted = await patchUpdate(tx, update.id, {
      downloadAttempts: attempts,
      // A resume from byte N says the device holds N bytes already.
      ...(fromByte > (update.bytes ?? 0) ? { bytes: fromByte } : {}),
    });
    if (attempts <= FIRMWARE_DOWNLOAD_ATTEMPTS) return true;
    const located = await findFlowboxById(tx, update.flowboxId);
    if (located) await moveUpdate(tx, counted, located, { state: 'block_download_failed' }, now, SYSTEM);
    return false;
  });
}
