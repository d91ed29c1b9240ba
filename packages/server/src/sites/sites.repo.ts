import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Site } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { sites } from '../db/schema.ts';
import { siteAt } from '../db/scope.ts';
import { escapeLike } from '../db/values.ts';

export type SiteRow = typeof sites.$inferSelect;

// Columns are spelled out: inside a raw subquery drizzle would leave them unqualified.
const buildingCount = sql<number>`(SELECT count(*)::int FROM buildings AS b WHERE b.site_id = "sites"."id")`;

/** A customer's sites by name; `visible`, when given, keeps only those ids (a site manager's). */
export async function listSites(
  db: Db,
  customerId: string,
  query: { search?: string; limit: number; offset: number },
  visible?: string[],
) {
  const conditions: SQL[] = [eq(sites.customerId, customerId)];
  if (visible) conditions.push(inArray(sites.id, visible));
  if (query.search) conditions.push(ilike(sites.name, `%${escapeLike(query.search)}%`));
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ site: sites, buildingCount })
      .from(sites)
      .where(where)
      .orderBy(asc(sites.name), asc(sites.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(sites).where(where),
  ]);
  return { items: rows.map((r) => toApiSite(r.site, r.buildingCount)), total: totalRow?.total ?? 0 };
}

export async function findSite(db: Db, customerId: string, siteId: string): Promise<Site | undefined> {
  const [row] = await db
    .select({ site: sites, buildingCount })
    .from(sites)
    .where(siteAt({ customerId, siteId }));
  return row ? toApiSite(row.site, row.buildingCount) : undefined;
}

export async function findSiteRow(db: Db, customerId: string, siteId: string): Promise<SiteRow | undefined> {
  const [row] = await db.select().from(sites).where(siteAt({ customerId, siteId }));
  return row;
}

/** Those of these sites that belong to the customer. */
export async function siteIdsOfCustomer(db: Db, customerId: string, siteIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.customerId, customerId), inArray(sites.id, siteIds)));
  return rows.map((r) => r.id);
}

export type SitePatch = { name?: string; latitude?: number | null; longitude?: number | null };

export async function insertSite(
  db: Db,
  customerId: string,
  input: { name: string; latitude?: number | null; longitude?: number | null },
): Promise<SiteRow> {
  const [row] = await db
    .insert(sites)
    .values({
      customerId,
      name: input.name,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
    })
    .returning();
  return row!;
}

export async function updateSite(db: Db, siteId: string, patch: SitePatch): Promise<SiteRow> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  const [row] = await db
    .update(sites)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(sites.id, siteId))
    .returning();
  return row!;
}

/** Buildings and everything below them go with it (foreign keys cascade), user_sites too. */
export async function deleteSite(db: Db, siteId: string): Promise<void> {
  await db.delete(sites).where(eq(sites.id, siteId));
}

export function toApiSite(row: SiteRow, buildings: number): Site {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    plan: row.plan,
    logo: row.logo,
    latitude: row.latitude,
    longitude: row.longitude,
    building_count: Number(buildings),
    created_at: row.createdAt.toISOString(),
  };
}
