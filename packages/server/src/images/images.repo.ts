import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildings, customers, images, sites } from '../db/schema.ts';
import { deleteFiles } from '../files/files.store.ts';

export type ImageRow = typeof images.$inferSelect;
export type NewImageRow = typeof images.$inferInsert;

const URL_PREFIX = '/v1/images/';

/** What a record's logo, plan or picture field holds: the path the image is served at. */
export function imageUrl(id: string): string {
  return `${URL_PREFIX}${id}`;
}

export function imageIdOf(url: string | null): string | undefined {
  return url?.startsWith(URL_PREFIX) ? url.slice(URL_PREFIX.length) : undefined;
}

export async function insertImage(db: Db, values: NewImageRow): Promise<void> {
  await db.insert(images).values(values);
}

export async function findImage(db: Db, id: string): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row;
}

/** Deletes one image record and its file. */
export async function deleteImage(db: Db, id: string): Promise<void> {
  const rows = await db.delete(images).where(eq(images.id, id)).returning({ fileId: images.fileId });
  await deleteFiles(db, fileIdsOf(rows));
}

/**
 * Deletes every image under a customer, a site or a building, and their files: called before the
 * owner is deleted, whose cascade would take the rows but leave the files.
 */
export async function deleteImagesUnder(
  db: Db,
  owner: { customerId: string } | { siteId: string } | { buildingId: string },
): Promise<void> {
  const where =
    'buildingId' in owner
      ? eq(images.buildingId, owner.buildingId)
      : 'siteId' in owner
        ? eq(images.siteId, owner.siteId)
        : eq(images.customerId, owner.customerId);
  const rows = await db.delete(images).where(where).returning({ fileId: images.fileId });
  await deleteFiles(db, fileIdsOf(rows));
}

const fileIdsOf = (rows: { fileId: string | null }[]) => rows.flatMap((r) => (r.fileId ? [r.fileId] : []));

/** Images whose file is still in DATA_DIR/uploads (kept there before files moved to the database). */
export async function imagesToImport(
  db: Db,
): Promise<{ id: string; fileName: string; contentType: string }[]> {
  const rows = await db
    .select({ id: images.id, fileName: images.fileName, contentType: images.contentType })
    .from(images)
    .where(isNull(images.fileId));
  return rows.flatMap((r) => (r.fileName ? [{ ...r, fileName: r.fileName }] : []));
}

/**
 * Locks an image still to import, so that one instance of several starting at once imports it; answers
 * false when another has it or has done it.
 */
export async function claimImageToImport(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.id, id), isNull(images.fileId)))
    .for('update', { skipLocked: true });
  return rows.length === 1;
}

export async function setImageFile(db: Db, id: string, fileId: string): Promise<void> {
  await db.update(images).set({ fileId }).where(eq(images.id, id));
}

/** Whose image it is, and which of its fields holds it. */
export type ImageOwner =
  | { object: 'customer'; field: 'logo'; customerId: string }
  | { object: 'site'; field: 'logo' | 'plan'; customerId: string; siteId: string }
  | { object: 'building'; field: 'plan' | 'picture'; customerId: string; siteId: string; buildingId: string };

/** Points the owner's field at the new image. */
export async function setOwnerImage(db: Db, owner: ImageOwner, url: string): Promise<void> {
  const updatedAt = new Date();
  if (owner.object === 'customer') {
    await db.update(customers).set({ logo: url, updatedAt }).where(eq(customers.id, owner.customerId));
  } else if (owner.object === 'site') {
    await db
      .update(sites)
      .set({ [owner.field]: url, updatedAt })
      .where(eq(sites.id, owner.siteId));
  } else {
    await db
      .update(buildings)
      .set({ [owner.field]: url, updatedAt })
      .where(eq(buildings.id, owner.buildingId));
  }
}
