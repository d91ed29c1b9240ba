import { FIRMWARE_ACTIVE_STATES, FIRMWARE_DOWNLOAD_ATTEMPTS } from '@flowbox/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { firmwareImages, firmwareUpdates, firmwareUpdateSteps, flowboxes } from '../db/schema.ts';

/** What a download needs of its update: whose it is, where it stands, and the image's file. */
export type DownloadUpdate = {
  id: string;
  serial: string;
  state: (typeof firmwareUpdates.$inferSelect)['state'];
  imageId: string;
  fileId: string;
};

export async function findDownloadUpdate(db: Db, updateId: string): Promise<DownloadUpdate | undefined> {
  const [row] = await db
    .select({
      id: firmwareUpdates.id,
      serial: flowboxes.serial,
      state: firmwareUpdates.state,
      imageId: firmwareUpdates.imageId,
      fileId: firmwareImages.fileId,
    })
    .from(firmwareUpdates)
    .innerJoin(flowboxes, eq(flowboxes.id, firmwareUpdates.flowboxId))
    .innerJoin(firmwareImages, eq(firmwareImages.id, firmwareUpdates.imageId))
    .where(eq(firmwareUpdates.id, updateId));
  return row;
}

/**
 * Counts a download of the update (the first one and each resume, `fromByte` where it starts) and
 * says whether it may go on:
 * past FIRMWARE_DOWNLOAD_ATTEMPTS the update is `block_download_failed` (docs/firmware.md "What the
 * server decides") and this download, like every later one, is refused.
 */
export async function recordDownloadStart(
  db: Db,
  updateId: string,
  fromByte: number,
  at: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(firmwareUpdates)
      .set({
        downloadAttempts: sql`${firmwareUpdates.downloadAttempts} + 1`,
        // A resume from byte N says the device holds N bytes already.
        bytes: sql`greatest(coalesce(${firmwareUpdates.bytes}, 0), ${fromByte})`,
      })
      .where(
        and(eq(firmwareUpdates.id, updateId), inArray(firmwareUpdates.state, [...FIRMWARE_ACTIVE_STATES])),
      )
      .returning({ attempts: firmwareUpdates.downloadAttempts });
    if (!row) return false;
    if (row.attempts <= FIRMWARE_DOWNLOAD_ATTEMPTS) return true;
    await tx
      .update(firmwareUpdates)
      .set({ state: 'block_download_failed', stateChangedAt: at, finishedAt: at })
      .where(eq(firmwareUpdates.id, updateId));
    await tx.insert(firmwareUpdateSteps).values({ updateId, state: 'block_download_failed', at });
    return false;
  });
}
