import { isFinalFirmwareState, type FirmwareUpdateState } from '@flowbox/shared';

/*
 * The order of an update's states (docs/firmware.md "Device protocol"): a device's message never
 * moves an update backwards, and nothing moves a finished one. Pure, so it is tested without a
 * database.
 */

const RANK: Record<FirmwareUpdateState, number> = {
  scheduled: 0,
  requested: 1,
  requesting: 2,
  started: 3,
  downloaded: 4,
  success: 5,
  failed: 5,
  invalid_naming: 5,
  timeout: 5,
  block_download_failed: 5,
  skipped: 5,
  cancelled: 5,
};

/**
 * Whether a device's `firmware_progress` may concern this update (docs/firmware.md "Device
 * protocol"): the device's own, of the version it names, and sent to it, that is carrying its
 * `update_firmware` command. A waiting (`scheduled`) update, or one cancelled or skipped before
 * its turn, was never sent: whatever a device says of it is about an update it does not have,
 * however low `scheduled` ranks below what it says.
 */
export function concernsDevice(
  update: { flowboxId: string; targetVersion: string; commandId: string | null },
  flowboxId: string,
  version: string,
): boolean {
  return update.flowboxId === flowboxId && update.targetVersion === version && update.commandId !== null;
}

/**
 * What a reported state does to an update in `current`. `confirms`: the device says the final state
 * the server already decided (its `success` event after its `state` with the new version made the
 * update a success, or its `failed` after the rollback was seen): the normal end of an update, not
 * a late message. `late`: anything else about an update already finished (a `success` after a
 * timeout, a `started` after a failure).
 */
export type Judgement = 'confirms' | 'late' | 'backwards' | 'progress' | 'move';

export function judgeReportedState(current: FirmwareUpdateState, reported: FirmwareUpdateState): Judgement {
  if (isFinalFirmwareState(current)) return reported === current ? 'confirms' : 'late';
  if (reported === current) return 'progress';
  // docs/firmware.md "Device protocol" 4: after a checksum mismatch the device starts over from
  // byte 0 and says so with `requesting`; the update is still downloading, not going backwards.
  if (reported === 'requesting' && current === 'started') return 'progress';
  return RANK[reported] > RANK[current] ? 'move' : 'backwards';
}
