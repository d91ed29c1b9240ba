import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { EventAction, ListQuery, Site } from '@flowbox/shared';
import {
  requireCustomerManage,
  requireCustomerRead,
  requireSiteRead,
  siteFilterFor,
  type Actor,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { changedFieldsOf, recordChange } from '../events/events.repo.ts';
import { requireCustomerRow } from '../customers/customers.repo.ts';
import { escapeLike } from '../db/values.ts';
import { sites } from '../db/schema.ts';
import { namesMismatch, notFound } from '../errors.ts';
import { removeImageFiles } from '../images/images.files.ts';
import { retireFlowboxesUnder } from '../flowboxes/removal.ts';
import { imageFilesUnder } from '../images/images.repo.ts';
import type { DeviceLink } from '../devices/index.ts';

type SiteRow = typeof sites.$inferSelect;

// Columns are spelled out: inside a raw subquery drizzle would leave them unqualified.
const buildingCount = sql<number>`(SELECT count(*)::int FROM buildings AS b WHERE b.site_id = "sites"."id")`;

/** Sites of a customer (spec §3, §6): customer managers manage them, site managers see their own. */
export class SitesService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
  ) {}

  async list(actor: Actor, customerId: string, query: ListQuery) {
    requireCustomerRead(actor, customerId);
    await requireCustomerRow(this.ctx.db, customerId);
    const conditions: SQL[] = [eq(sites.customerId, customerId)];
    const visible = siteFilterFor(actor);
    if (visible !== 'all') {
      if (visible.length === 0) return { items: [], total: 0 };
      conditions.push(inArray(sites.id, visible));
    }
    if (query.search) conditions.push(ilike(sites.name, `%${escapeLike(query.search)}%`));
    const where = and(...conditions);
    const [rows, [totalRow]] = await Promise.all([
      this.ctx.db
        .select({ site: sites, buildingCount })
        .from(sites)
        .where(where)
        .orderBy(asc(sites.name), asc(sites.id))
        .limit(query.limit)
        .offset(query.offset),
      this.ctx.db.select({ total: count() }).from(sites).where(where),
    ]);
    return { items: rows.map((r) => toApiSite(r.site, r.buildingCount)), total: totalRow?.total ?? 0 };
  }

  async info(actor: Actor, customerId: string, siteId: string): Promise<Site> {
    requireSiteRead(actor, customerId, siteId);
    const [row] = await this.ctx.db
      .select({ site: sites, buildingCount })
      .from(sites)
      .where(and(eq(sites.id, siteId), eq(sites.customerId, customerId)));
    if (!row) throw notFound();
    return toApiSite(row.site, row.buildingCount);
  }

  async create(actor: Actor, customerId: string, input: { name: string }): Promise<Site> {
    requireCustomerManage(actor, customerId, 'sites.manage');
    await requireCustomerRow(this.ctx.db, customerId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const [created] = await tx.insert(sites).values({ customerId, name: input.name }).returning();
      await this.record(tx, actor, 'created', created!, []);
      return created!;
    });
    return toApiSite(row, 0);
  }

  async update(actor: Actor, customerId: string, siteId: string, input: { name?: string }): Promise<Site> {
    requireCustomerManage(actor, customerId, 'sites.manage');
    await this.find(customerId, siteId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(sites)
        .set({ ...(input.name !== undefined ? { name: input.name } : {}), updatedAt: new Date() })
        .where(eq(sites.id, siteId))
        .returning();
      await this.record(tx, actor, 'updated', updated!, changedFieldsOf(input));
      return updated!;
    });
    return this.info(actor, customerId, row.id);
  }

  /**
   * Its buildings go with it, and everything below them (docs/hierarchy.md), flowboxes included,
   * whose devices lose the broker; site managers lose the assignment (user_sites cascades) and their
   * accounts stay.
   */
  async remove(actor: Actor, customerId: string, siteId: string, confirmName: string): Promise<void> {
    requireCustomerManage(actor, customerId, 'sites.manage');
    const site = await this.find(customerId, siteId);
    if (confirmName.trim() !== site.name) throw namesMismatch();
    const files = await imageFilesUnder(this.ctx.db, { siteId });
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await retireFlowboxesUnder(tx, { siteId }, actor, this.ctx.now());
      await tx.delete(sites).where(eq(sites.id, siteId));
      await this.record(tx, actor, 'deleted', site, []);
      return serials;
    });
    this.link.disconnectAll(retired);
    await removeImageFiles(this.ctx.config.uploadsDir, files);
  }

  private record(
    db: Db,
    actor: Actor,
    action: EventAction,
    site: SiteRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'site',
      objectId: site.id,
      objectLabel: site.name,
      scope: { customerId: site.customerId, siteId: site.id },
      changedFields,
    });
  }

  private async find(customerId: string, siteId: string): Promise<SiteRow> {
    const [row] = await this.ctx.db
      .select()
      .from(sites)
      .where(and(eq(sites.id, siteId), eq(sites.customerId, customerId)));
    if (!row) throw notFound();
    return row;
  }
}

function toApiSite(row: SiteRow, buildingCount: number): Site {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    plan: row.plan,
    logo: row.logo,
    building_count: Number(buildingCount),
    created_at: row.createdAt.toISOString(),
  };
}
