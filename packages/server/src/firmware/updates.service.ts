import { randomUUID } from 'node:crypto';
import {
  FIRMWARE_COMMAND_TTL_S,
  FIRMWARE_INSTALL_TIMEOUT_S,
  FIRMWARE_PROGRESS_TIMEOUT_S,
  FIRMWARE_URL_TTL_S,
  isFinalFirmwareState,
  isWithinOpeningHours,
  type FirmwareUpdate,
  type FirmwareUpdateCreateSchema,
  type FlowboxFirmware,
} from '@flowbox/shared';
import type { z } from 'zod';
import { isProvider, requireSiteManage, type Actor } from '../access/access.ts';
import { isZoneLocked } from '../automation/index.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import {
  findFlowbox,
  findFlowboxById,
  valveCommandOnItsWay,
  type FirmwareListener,
  type FlowboxPath,
} from '../flowboxes/index.ts';
import type { FirmwareCatalogueService } from './catalogue.service.ts';
import { flowboxesWaitingElsewhere, openingHoursOf } from './rollouts.repo.ts';
import { signDownloadToken } from './download-token.ts';
import {
  claimSilentUpdates,
  findImage,
  findPlacedUpdate,
  findRunningUpdate,
  hasRunningUpdate,
  imageReleasedTo,
  insertUpdate,
  listFlowboxUpdates,
  lockUpdate,
  lockUpdateOfCommand,
  patchUpdate,
  stepsOf,
  type ImageRow,
  type UpdateRow,
} from './updates.repo.ts';
import { DEVICE, moveUpdate, notifyUpdate, SYSTEM, type Mover } from './updates.moves.ts';
import { concernsDevice, judgeReportedState } from './updates.states.ts';
import { toApiUpdate } from './updates.view.ts';

type CreateInput = z.output<typeof FirmwareUpdateCreateSchema>;

/** How many silent updates one pass of the timeout job claims; the rest wait for the next pass. */
const CLAIM_BATCH = 100;
const HISTORY = 20;

/**
 * The devices' firmware progress messages by what they did (docs/firmware.md "Device protocol"):
 * `moved` the update to a new state, `progress` within its state, `confirmed` the final state the
 * server had already decided; or changed nothing: `late` (the update had already ended otherwise),
 * `out_of_order` (it would have gone backwards), `unknown_update` (another device's or version's,
 * or one the server never sent: waiting its turn in a rollout, or ended before it).
 */
export const FIRMWARE_MESSAGE_OUTCOMES = [
  'moved',
  'progress',
  'confirmed',
  'late',
  'out_of_order',
  'unknown_update',
] as const;
export type FirmwareMessageOutcome = (typeof FIRMWARE_MESSAGE_OUTCOMES)[number];
export type FirmwareMessageCounters = Record<FirmwareMessageOutcome, number>;

/**
 * One flowbox's firmware updates (docs/firmware.md): the flowbox page's card and request, the
 * command that carries an update, the device's answers and progress, and the timeouts.
 */
export class FirmwareUpdatesService {
  readonly counters: FirmwareMessageCounters = {
    moved: 0,
    progress: 0,
    confirmed: 0,
    late: 0,
    out_of_order: 0,
    unknown_update: 0,
  };

  constructor(
    private readonly ctx: Context,
    private readonly commands: CommandsService,
    private readonly catalogue: FirmwareCatalogueService,
  ) {}

  async flowboxFirmware(actor: Actor, path: FlowboxPath): Promise<FlowboxFirmware> {
    requireSiteManage(actor, path.customerId, path.siteId, 'firmware.update');
    const located = await findFlowbox(this.ctx.db, path);
    if (!located) throw notFound();
    const { flowbox } = located;
    // The catalogue's own reading: counts within the reader's scope, not the flowbox's customer's.
    const images = flowbox.model
      ? await this.catalogue.usableBy(actor, located.scope.customerId, flowbox.model)
      : [];
    const compatible = images.filter((image) => image.version !== flowbox.firmwareVersion);
    const history = await this.updatesOf(this.ctx.db, flowbox.id);
    return {
      model: flowbox.model,
      versions: { esp: flowbox.espVersion, board: flowbox.boardVersion, firmware: flowbox.firmwareVersion },
      compatible,
      current: history.find((u) => !isFinalFirmwareState(u.state) && u.state !== 'scheduled') ?? null,
      history,
    };
  }

  /** The flowbox page's "update firmware": refused unless the flowbox may take this image now. */
  async request(actor: Actor, path: FlowboxPath, input: CreateInput): Promise<FirmwareUpdate> {
    requireSiteManage(actor, path.customerId, path.siteId, 'firmware.update');
    const located = await findFlowbox(this.ctx.db, path);
    if (!located) throw notFound();
    // spec §4: nothing happens in a locked zone, whatever else the request says.
    if (await isZoneLocked(this.ctx.db, located.scope.zoneId))
      throw new AppError('errors.firmware_zone_locked');
    const image = await releasedImage(this.ctx.db, actor, input.image_id, located.scope.customerId);
    if (image.status === 'withdrawn') throw new AppError('errors.firmware_withdrawn');
    if (located.flowbox.pairingState !== 'ready') throw new AppError('errors.flowbox_not_ready');
    if (!located.flowbox.model || !image.models.includes(located.flowbox.model))
      throw new AppError('errors.firmware_incompatible');
    const now = this.ctx.now();
    const id = await this.ctx.db.transaction(async (tx) => {
      await requireUsableImage(tx, image.id);
      const refusal = await this.refusalNow(tx, located, now, null);
      if (refusal) throw new AppError(refusal);
      // The issue: never start an update during the building's opening hours by default (the
      // flowbox does not measure while it restarts); the user may ask for it even then.
      if (!input.during_opening_hours && (await this.withinOpeningHours(tx, located, now)))
        throw new AppError('errors.firmware_opening_hours');
      const update = await insertUpdate(tx, {
        id: randomUUID(),
        flowboxId: located.flowbox.id,
        imageId: image.id,
        fromVersion: located.flowbox.firmwareVersion,
        targetVersion: image.version,
        state: 'scheduled',
        origin: 'web',
        requestedBy: actor.id,
        requestedByName: actor.name,
        stateChangedAt: now,
      });
      await this.launch(tx, update, located, image, now, { origin: 'web', by: actor });
      return update.id;
    });
    await this.commands.dispatchDue();
    const placed = await findPlacedUpdate(this.ctx.db, id);
    return toApiUpdate(placed!, await stepsOf(this.ctx.db, [id]));
  }

  /**
   * Why the flowbox may not start an update now, if it may not (docs/firmware.md). Locks the
   * flowbox's row until the transaction ends, so two requests cannot both start one. `rolloutId`:
   * the rollout whose turn this is, if one (its own waiting update is no reason to refuse).
   */
  async refusalNow(
    tx: Db,
    located: LocatedFlowbox,
    now: Date,
    rolloutId: string | null,
  ): Promise<
    | 'errors.valve_command_pending'
    | 'errors.firmware_zone_locked'
    | 'errors.firmware_update_running'
    | 'errors.firmware_in_rollout'
    | null
  > {
    if (await valveCommandOnItsWay(tx, located.flowbox.id, now)) return 'errors.valve_command_pending';
    if (await isZoneLocked(tx, located.scope.zoneId)) return 'errors.firmware_zone_locked';
    if (await hasRunningUpdate(tx, located.flowbox.id)) return 'errors.firmware_update_running';
    if ((await flowboxesWaitingElsewhere(tx, [located.flowbox.id], rolloutId)).size > 0)
      return 'errors.firmware_in_rollout';
    return null;
  }

  /** Whether the opening hours of the flowbox's zone (else its building's) hold `now`. */
  async withinOpeningHours(tx: Db, located: LocatedFlowbox, now: Date): Promise<boolean> {
    const place = await openingHoursOf(tx, located.scope.zoneId);
    return place?.hours ? isWithinOpeningHours(place.hours, place.timezone, now) : false;
  }

  /**
   * Starts a scheduled update: `requested`, and its `update_firmware` command queued in the same
   * transaction with a download URL signed for this device, image and update.
   */
  async launch(
    tx: Db,
    update: UpdateRow,
    located: LocatedFlowbox,
    image: ImageRow,
    now: Date,
    mover: Mover,
  ): Promise<UpdateRow> {
    const token = signDownloadToken(
      {
        serial: located.flowbox.serial,
        imageId: image.id,
        updateId: update.id,
        expiresAt: new Date(now.getTime() + FIRMWARE_URL_TTL_S * 1000),
      },
      this.ctx.config.jwtSecret,
    );
    const command = await this.commands.queueFirmware(
      tx,
      located.flowbox.id,
      {
        update_id: update.id,
        version: image.version,
        file_name: image.fileName,
        size: image.size,
        sha256: image.sha256,
        url: `${this.ctx.config.publicUrl}/v1/firmware/download/${token}`,
      },
      { now, expiresAt: new Date(now.getTime() + FIRMWARE_COMMAND_TTL_S * 1000) },
      { origin: mover.origin === 'web' ? 'web' : 'system', by: mover.by },
    );
    const withCommand = await patchUpdate(tx, update.id, {
      commandId: command.id,
      fromVersion: located.flowbox.firmwareVersion,
    });
    return moveUpdate(tx, withCommand, located, { state: 'requested' }, now, mover);
  }

  /** What the device path tells this domain (registered on the commands service by app.ts). */
  listener(): FirmwareListener {
    return {
      commandAnswered: async (db, command, answer, _reason, at) => {
        const update = await lockUpdateOfCommand(db, command.id);
        if (!update || isFinalFirmwareState(update.state)) return;
        const located = await findFlowboxById(db, update.flowboxId);
        if (!located) return;
        if (answer === 'accepted') await patchUpdate(db, update.id, { lastMessageAt: at });
        else if (answer === 'refused')
          await moveUpdate(db, update, located, { state: 'failed', reason: 'refused' }, at, DEVICE);
        else if (answer === 'expired' && update.state === 'requested')
          await moveUpdate(db, update, located, { state: 'timeout' }, at, SYSTEM);
      },
      progress: async (db, located, event, at) => {
        const update = await lockUpdate(db, event.update_id);
        if (!update || !concernsDevice(update, located.flowbox.id, event.version)) {
          this.counters.unknown_update += 1;
          return;
        }
        const judged = judgeReportedState(update.state, event.state);
        if (judged === 'late') this.counters.late += 1;
        else if (judged === 'confirms') this.counters.confirmed += 1;
        else if (judged === 'backwards') {
          this.counters.out_of_order += 1;
          await patchUpdate(db, update.id, { lastMessageAt: at });
        } else if (judged === 'progress') {
          this.counters.progress += 1;
          const moved = await patchUpdate(db, update.id, {
            lastMessageAt: at,
            progressPct: event.progress_pct,
            ...(event.bytes !== undefined ? { bytes: event.bytes } : {}),
          });
          await notifyUpdate(db, moved, located);
        } else {
          this.counters.moved += 1;
          await moveUpdate(
            db,
            update,
            located,
            {
              state: event.state,
              // docs/firmware.md: `failed` and `block_download_failed` say why (rolled_back,
              // checksum_mismatch, download_failed…).
              reason:
                event.state === 'failed' || event.state === 'block_download_failed'
                  ? (event.reason ?? null)
                  : null,
              progressPct:
                event.state === 'downloaded' || event.state === 'success' ? 100 : event.progress_pct,
              ...(event.bytes !== undefined ? { bytes: event.bytes } : {}),
            },
            at,
            DEVICE,
          );
        }
      },
      versionReported: async (db, located, version, at) => {
        const update = await findRunningUpdate(db, located.flowbox.id);
        if (!update) return;
        if (version === update.targetVersion && version !== update.fromVersion)
          await moveUpdate(db, update, located, { state: 'success', progressPct: 100 }, at, DEVICE);
        else if (update.state === 'downloaded' && rebootedSince(located, update.stateChangedAt))
          await moveUpdate(db, update, located, { state: 'failed', reason: 'rolled_back' }, at, DEVICE);
      },
    };
  }

  /**
   * One pass of the timeout job (docs/firmware.md "What the server decides"): updates the device
   * left silent too long become `timeout`. Safe on every instance at once (FOR UPDATE SKIP LOCKED).
   */
  async timeOutSilent(): Promise<number> {
    const now = this.ctx.now();
    const before = (s: number) => new Date(now.getTime() - s * 1000);
    return this.ctx.db.transaction(async (tx) => {
      const silent = await claimSilentUpdates(
        tx,
        {
          commandBefore: before(FIRMWARE_COMMAND_TTL_S),
          progressBefore: before(FIRMWARE_PROGRESS_TIMEOUT_S),
          installBefore: before(FIRMWARE_INSTALL_TIMEOUT_S),
          urlIssuedBefore: before(FIRMWARE_URL_TTL_S),
        },
        CLAIM_BATCH,
      );
      for (const update of silent) {
        const located = await findFlowboxById(tx, update.flowboxId);
        if (located) await moveUpdate(tx, update, located, { state: 'timeout' }, now, SYSTEM);
      }
      return silent.length;
    });
  }

  private async updatesOf(db: Db, flowboxId: string): Promise<FirmwareUpdate[]> {
    const placed = await listFlowboxUpdates(db, flowboxId, HISTORY);
    const steps = await stepsOf(
      db,
      placed.map((p) => p.update.id),
    );
    return placed.map((p) =>
      toApiUpdate(
        p,
        steps.filter((s) => s.updateId === p.update.id),
      ),
    );
  }
}

/**
 * The image an update or a rollout names, if it is released to the customer (`null`: the whole
 * fleet, the provider's). One not released is not the caller's to see, and one that does not exist
 * gets the same 403 as any refusal (docs/permissions.md: existence never leaks); provider managers,
 * who read the whole catalogue, are told it does not exist.
 */
export async function releasedImage(
  db: Db,
  actor: Actor,
  imageId: string,
  customerId: string | null,
): Promise<ImageRow> {
  const image = await findImage(db, imageId);
  if (!image) throw isProvider(actor) ? notFound() : forbidden();
  if (customerId !== null && !(await imageReleasedTo(db, image, customerId))) throw forbidden();
  return image;
}

/**
 * Fails unless the image is still usable, read under a share lock in the transaction that starts
 * updates with it: a withdrawal in flight (another request, another instance) is waited for, and
 * one after it waits for those updates to be recorded (docs/firmware.md "Status").
 */
export async function requireUsableImage(db: Db, imageId: string): Promise<void> {
  const image = await findImage(db, imageId, { share: true });
  if (!image || image.status === 'withdrawn') throw new AppError('errors.firmware_withdrawn');
}

/**
 * Whether the device went down and came back since `since` (docs/firmware.md: after `downloaded`,
 * a state without the new version once the device rebooted is a rollback). `located` is the
 * flowbox as it was before the state was applied: disconnected then, or reconnected since.
 */
function rebootedSince(located: LocatedFlowbox, since: Date): boolean {
  const { connected, connectionChangedAt } = located.flowbox;
  return !connected || (connectionChangedAt !== null && connectionChangedAt > since);
}
