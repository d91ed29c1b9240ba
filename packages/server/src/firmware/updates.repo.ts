import { and, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import {
  FIRMWARE_ACTIVE_STATES,
  type FirmwareFailureReason,
  type FirmwareSkipReason,
  type FirmwareUpdateState,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import {
  deviceCommands,
  firmwareImageCustomers,
  firmwareImages,
  firmwareUpdates,
  firmwareUpdateSteps,
  flowboxes,
} from '../db/schema.ts';
import { withZoneScopeOf, zoneScopeColumns, type FlowboxScope } from '../db/scope.ts';

export type UpdateRow = typeof firmwareUpdates.$inferSelect;
export type NewUpdateRow = typeof firmwareUpdates.$inferInsert;
export type StepRow = typeof firmwareUpdateSteps.$inferSelect;
export type ImageRow = typeof firmwareImages.$inferSelect;
export type UpdateReason = FirmwareFailureReason | FirmwareSkipReason;

/** An update with its flowbox's serial and place: what the API and the live channel show. */
export type PlacedUpdate = { update: UpdateRow; serial: string; scope: FlowboxScope };

function selectPlaced(db: Db) {
  return withZoneScopeOf(
    db
      .select({ update: firmwareUpdates, serial: flowboxes.serial, scope: zoneScopeColumns })
      .from(firmwareUpdates)
      .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId)),
    flowboxes.zoneId,
  );
}

/** An image; `share`: its row held against a change (a withdrawal) until the transaction ends. */
export async function findImage(
  db: Db,
  id: string,
  options: { share?: boolean } = {},
): Promise<ImageRow | undefined> {
  const query = db.select().from(firmwareImages).where(eq(firmwareImages.id, id));
  const [row] = options.share ? await query.for('share') : await query;
  return row;
}

/** Whether the image may be used for this customer's flowboxes (released to all, or to it). */
export async function imageReleasedTo(db: Db, image: ImageRow, customerId: string): Promise<boolean> {
  if (image.releasedToAll) return true;
  const [row] = await db
    .select({ id: firmwareImageCustomers.imageId })
    .from(firmwareImageCustomers)
    .where(
      and(eq(firmwareImageCustomers.imageId, image.id), eq(firmwareImageCustomers.customerId, customerId)),
    );
  return row !== undefined;
}

export async function insertUpdate(db: Db, values: NewUpdateRow): Promise<UpdateRow> {
  const [row] = await db.insert(firmwareUpdates).values(values).returning();
  return row!;
}

/** Rows a statement: well below PostgreSQL's 65535 parameters. */
export const ROWS_PER_INSERT = 1000;

/** Rows of the updates' history, a thousand a statement. */
export async function insertSteps(
  db: Db,
  steps: {
    updateId: string;
    state: FirmwareUpdateState;
    at: Date;
    progressPct?: number | null;
    reason?: UpdateReason | null;
  }[],
): Promise<void> {
  for (let i = 0; i < steps.length; i += ROWS_PER_INSERT)
    await db.insert(firmwareUpdateSteps).values(steps.slice(i, i + ROWS_PER_INSERT));
}

export async function patchUpdate(db: Db, id: string, patch: Partial<NewUpdateRow>): Promise<UpdateRow> {
  const [row] = await db.update(firmwareUpdates).set(patch).where(eq(firmwareUpdates.id, id)).returning();
  return row!;
}

/** Locks the update until the transaction ends: its state moves one message at a time. */
export async function lockUpdate(db: Db, id: string): Promise<UpdateRow | undefined> {
  const [row] = await db.select().from(firmwareUpdates).where(eq(firmwareUpdates.id, id)).for('update');
  return row;
}

/** The flowbox's unfinished update, if one runs (the unique index allows one). */
export async function findRunningUpdate(db: Db, flowboxId: string): Promise<UpdateRow | undefined> {
  const [row] = await db
    .select()
    .from(firmwareUpdates)
    .where(
      and(
        eq(firmwareUpdates.flowboxId, flowboxId),
        inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
      ),
    )
    .for('update');
  return row;
}

/**
 * Whether the flowbox runs an update, without locking it: callers hold the flowbox's row, which
 * serialises the starts, and a lock here would take the update before the flowbox, the other way
 * round from the device path (deadlock).
 */
export async function hasRunningUpdate(db: Db, flowboxId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: firmwareUpdates.id })
    .from(firmwareUpdates)
    .where(
      and(
        eq(firmwareUpdates.flowboxId, flowboxId),
        inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES]),
      ),
    );
  return row !== undefined;
}

/** The update carried by this command, locked. */
export async function lockUpdateOfCommand(db: Db, commandId: string): Promise<UpdateRow | undefined> {
  const [row] = await db
    .select()
    .from(firmwareUpdates)
    .where(eq(firmwareUpdates.commandId, commandId))
    .for('update');
  return row;
}

export async function findPlacedUpdate(db: Db, id: string): Promise<PlacedUpdate | undefined> {
  const [row] = await selectPlaced(db).where(eq(firmwareUpdates.id, id));
  return row;
}

/** The flowbox's updates, newest first. */
export async function listFlowboxUpdates(db: Db, flowboxId: string, limit: number): Promise<PlacedUpdate[]> {
  return selectPlaced(db)
    .where(eq(firmwareUpdates.flowboxId, flowboxId))
    .orderBy(desc(firmwareUpdates.createdAt), desc(firmwareUpdates.id))
    .limit(limit);
}

/** The steps of these updates, oldest first. */
export async function stepsOf(db: Db, updateIds: string[]): Promise<StepRow[]> {
  if (updateIds.length === 0) return [];
  return db
    .select()
    .from(firmwareUpdateSteps)
    .where(inArray(firmwareUpdateSteps.updateId, updateIds))
    .orderBy(firmwareUpdateSteps.at, firmwareUpdateSteps.id);
}

/**
 * What the download route needs of an update (docs/firmware.md "Device protocol" step 3): its
 * state, its flowbox's serial and pairing state, and the image's stored file.
 */
export type DownloadableUpdate = {
  id: string;
  state: FirmwareUpdateState;
  imageId: string;
  flowboxId: string;
  serial: string;
  pairingState: string;
  fileId: string;
  fileName: string;
  size: number;
  sha256: string;
};

export async function findUpdateForDownload(
  db: Db,
  updateId: string,
): Promise<DownloadableUpdate | undefined> {
  const [row] = await db
    .select({
      id: firmwareUpdates.id,
      state: firmwareUpdates.state,
      imageId: firmwareUpdates.imageId,
      flowboxId: firmwareUpdates.flowboxId,
      serial: flowboxes.serial,
      pairingState: flowboxes.pairingState,
      fileId: firmwareImages.fileId,
      fileName: firmwareImages.fileName,
      size: firmwareImages.size,
      sha256: firmwareImages.sha256,
    })
    .from(firmwareUpdates)
    .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
    .innerJoin(firmwareImages, eq(firmwareImages.id, firmwareUpdates.imageId))
    .where(eq(firmwareUpdates.id, updateId));
  return row;
}

/**
 * Claims unfinished updates the device left silent too long (docs/firmware.md "What the server
 * decides"), locked and skipped by the other instances' passes (FOR UPDATE SKIP LOCKED).
 */
export async function claimSilentUpdates(
  db: Db,
  limits: { commandBefore: Date; progressBefore: Date; installBefore: Date; urlIssuedBefore: Date },
  limit: number,
): Promise<UpdateRow[]> {
  const u = firmwareUpdates;
  return db
    .select()
    .from(u)
    .where(
      or(
        // Still downloading when its URL expires, however lively (FIRMWARE_URL_TTL_S from its command).
        and(
          inArray(u.state, ['requested', 'requesting', 'started']),
          sql`EXISTS (SELECT 1 FROM ${deviceCommands} WHERE ${deviceCommands.id} = ${u.commandId}
                      AND ${deviceCommands.issuedAt} < ${limits.urlIssuedBefore.toISOString()}::timestamptz)`,
        ),
        and(eq(u.state, 'requested'), isNull(u.lastMessageAt), lt(u.stateChangedAt, limits.commandBefore)),
        and(eq(u.state, 'requested'), isNotNull(u.lastMessageAt), lt(u.lastMessageAt, limits.progressBefore)),
        and(
          inArray(u.state, ['requesting', 'started']),
          sql`greatest(${u.stateChangedAt}, coalesce(${u.lastMessageAt}, ${u.stateChangedAt}))
              < ${limits.progressBefore.toISOString()}::timestamptz`,
        ),
        and(eq(u.state, 'downloaded'), lt(u.stateChangedAt, limits.installBefore)),
      ),
    )
    .orderBy(u.stateChangedAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}
