import type { FirmwareImageStatus, FlowboxModel } from '@flowbox/shared';
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PlaceScope } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import {
  buildings,
  customers,
  firmwareImageCustomers,
  firmwareImages,
  flowboxes,
  sites,
} from '../db/schema.ts';
import { withZoneScopeOf } from '../db/scope.ts';

export type FirmwareImageRow = typeof firmwareImages.$inferSelect;
/** An image with the customers it is released to (empty when released to all). */
export type CatalogueImage = FirmwareImageRow & { customerIds: string[] };

/** Who reads the catalogue: everything (provider), or what is released to one customer. */
export type CatalogueReader = { releasedTo: 'any' } | { releasedTo: string; statuses: FirmwareImageStatus[] };

export type CatalogueFilter = { model?: FlowboxModel | undefined; status?: FirmwareImageStatus | undefined };

/** Uploads of the catalogue queue on this lock for their duplicate checks and insert (two instances). */
const CATALOGUE_LOCK = 4_246_017;

export async function lockCatalogue(db: Db): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${CATALOGUE_LOCK})`);
}

export async function insertFirmwareImage(
  db: Db,
  values: typeof firmwareImages.$inferInsert,
  customerIds: string[],
): Promise<CatalogueImage> {
  const [row] = await db.insert(firmwareImages).values(values).returning();
  await setReleasedCustomers(db, row!.id, customerIds);
  return { ...row!, customerIds };
}

/** An image with its release list; `lock`: its row held until the transaction ends. */
export async function findCatalogueImage(
  db: Db,
  id: string,
  options: { lock?: boolean } = {},
): Promise<CatalogueImage | undefined> {
  const query = db.select().from(firmwareImages).where(eq(firmwareImages.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) return undefined;
  return { ...row, customerIds: (await releasedCustomers(db, [id])).get(id) ?? [] };
}

export async function listCatalogueImages(
  db: Db,
  reader: CatalogueReader,
  filter: CatalogueFilter,
): Promise<CatalogueImage[]> {
  const conditions: SQL[] = [];
  if (filter.model)
    conditions.push(sql`${firmwareImages.models} @> ${JSON.stringify([filter.model])}::jsonb`);
  if (filter.status) conditions.push(eq(firmwareImages.status, filter.status));
  if ('statuses' in reader) conditions.push(releasedTo(reader.releasedTo, reader.statuses));
  const rows = await db
    .select()
    .from(firmwareImages)
    .where(and(...conditions))
    .orderBy(desc(firmwareImages.createdAt), asc(firmwareImages.version));
  const released = await releasedCustomers(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, customerIds: released.get(row.id) ?? [] }));
}

/** Images released to the customer (or to all) in one of these statuses. */
function releasedTo(customerId: string, statuses: FirmwareImageStatus[]): SQL {
  return and(
    inArray(firmwareImages.status, statuses),
    or(
      eq(firmwareImages.releasedToAll, true),
      // Correlated: drizzle writes the outer column qualified.
      sql`EXISTS (SELECT 1 FROM ${firmwareImageCustomers} WHERE ${firmwareImageCustomers.imageId} = ${firmwareImages.id} AND ${firmwareImageCustomers.customerId} = ${customerId})`,
    ),
  )!;
}

async function releasedCustomers(db: Db, imageIds: string[]): Promise<Map<string, string[]>> {
  const byImage = new Map<string, string[]>();
  if (imageIds.length === 0) return byImage;
  const rows = await db
    .select()
    .from(firmwareImageCustomers)
    .where(inArray(firmwareImageCustomers.imageId, imageIds))
    .orderBy(asc(firmwareImageCustomers.customerId));
  for (const row of rows) byImage.set(row.imageId, [...(byImage.get(row.imageId) ?? []), row.customerId]);
  return byImage;
}

/** Replaces the customers an image is released to. */
export async function setReleasedCustomers(db: Db, imageId: string, customerIds: string[]): Promise<void> {
  await db.delete(firmwareImageCustomers).where(eq(firmwareImageCustomers.imageId, imageId));
  if (customerIds.length > 0)
    await db
      .insert(firmwareImageCustomers)
      .values(customerIds.map((customerId) => ({ imageId, customerId })));
}

export async function updateFirmwareImage(
  db: Db,
  id: string,
  values: Partial<Pick<FirmwareImageRow, 'notesEn' | 'notesFr' | 'status' | 'releasedToAll'>>,
  at: Date,
): Promise<void> {
  await db
    .update(firmwareImages)
    .set({ ...values, updatedAt: at })
    .where(eq(firmwareImages.id, id));
}

/** The models of the catalogue's images of this version (a new image may not share one). */
export async function modelsOfVersion(db: Db, version: string): Promise<FlowboxModel[]> {
  const rows = await db
    .select({ models: firmwareImages.models })
    .from(firmwareImages)
    .where(eq(firmwareImages.version, version));
  return rows.flatMap((r) => r.models);
}

export async function sha256Taken(db: Db, sha256: string): Promise<boolean> {
  const [row] = await db
    .select({ id: firmwareImages.id })
    .from(firmwareImages)
    .where(eq(firmwareImages.sha256, sha256));
  return row !== undefined;
}

/** Those of the ids that name no customer. */
export async function unknownCustomers(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: customers.id }).from(customers).where(inArray(customers.id, ids));
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * How many flowboxes within the scope run each image now: their firmware version is the image's
 * and their model one it fits (two images may carry one version for different models).
 */
export async function installedCounts(
  db: Db,
  imageIds: string[],
  scope: Pick<PlaceScope, 'customerId' | 'siteIds'>,
): Promise<Map<string, number>> {
  if (imageIds.length === 0) return new Map();
  const conditions: SQL[] = [inArray(firmwareImages.id, imageIds)];
  if (scope.customerId) conditions.push(eq(sites.customerId, scope.customerId));
  if (scope.siteIds) {
    if (scope.siteIds.length === 0) return new Map();
    conditions.push(inArray(buildings.siteId, scope.siteIds));
  }
  const query = db
    .select({ imageId: firmwareImages.id, installed: count(flowboxes.id) })
    .from(firmwareImages)
    .innerJoin(
      flowboxes,
      and(
        eq(flowboxes.firmwareVersion, firmwareImages.version),
        sql`${firmwareImages.models} @> jsonb_build_array(${flowboxes.model})`,
      ),
    );
  const rows = await withZoneScopeOf(query, flowboxes.zoneId)
    .where(and(...conditions))
    .groupBy(firmwareImages.id);
  return new Map(rows.map((r) => [r.imageId, r.installed]));
}
