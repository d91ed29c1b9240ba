import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildings, customers, images, sites } from '../db/schema.ts';

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

/** Deletes one image record and answers its file name, for removal once the transaction commits. */
export async function deleteImage(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.delete(images).where(eq(images.id, id)).returning({ fileName: images.fileName });
  return row?.fileName;
}

/** The files of every image under a customer, a site or a building (their rows cascade on delete). */
export async function imageFilesUnder(
  db: Db,
  owner: { customerId: string } | { siteId: string } | { buildingId: string },
): Promise<string[]> {
  const where =
    'buildingId' in owner
      ? eq(images.buildingId, owner.buildingId)
      : 'siteId' in owner
        ? eq(images.siteId, owner.siteId)
        : eq(images.customerId, owner.customerId);
  const rows = await db.select({ fileName: images.fileName }).from(images).where(where);
  return rows.map((r) => r.fileName);
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
