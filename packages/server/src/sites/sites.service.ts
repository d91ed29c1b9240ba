import { typedNameMatches } from '@flowbox/shared';
import type { EventAction, ListQuery, Site } from '@flowbox/shared';
import {
  requireCustomerList,
  requireCustomerManage,
  requireSiteRead,
  siteFilterFor,
  type Actor,
} from '../access/access.ts';
import type { Context, RemoveBelow } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import type { Db } from '../db/client.ts';
import type { DeviceLink } from '../devices/index.ts';
import { namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import {
  deleteSite,
  findSite,
  findSiteRow,
  insertSite,
  listSites,
  toApiSite,
  updateSite,
  type SitePatch,
  type SiteRow,
} from './sites.repo.ts';

/** Sites of a customer (spec §3, §6): customer managers manage them, site managers see their own. */
export class SitesService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
    /** The flowboxes and images below, retired and deleted by their domains (composed in app.ts). */
    private readonly removeBelow: RemoveBelow,
  ) {}

  async list(actor: Actor, customerId: string, query: ListQuery) {
    // A plumber lists its sites as a site manager does; an end user gets none (siteFilterFor).
    requireCustomerList(actor, customerId);
    await requireCustomerRow(this.ctx.db, customerId);
    const visible = siteFilterFor(actor);
    if (visible !== 'all' && visible.length === 0) return { items: [], total: 0 };
    return listSites(this.ctx.db, customerId, query, visible === 'all' ? undefined : visible);
  }

  async info(actor: Actor, customerId: string, siteId: string): Promise<Site> {
    requireSiteRead(actor, customerId, siteId);
    const site = await findSite(this.ctx.db, customerId, siteId);
    if (!site) throw notFound();
    return site;
  }

  async create(actor: Actor, customerId: string, input: SitePatch & { name: string }): Promise<Site> {
    requireCustomerManage(actor, customerId, 'sites.manage');
    await requireCustomerRow(this.ctx.db, customerId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertSite(tx, customerId, input);
      await this.record(tx, actor, 'created', created, []);
      return created;
    });
    return toApiSite(row, 0);
  }

  async update(actor: Actor, customerId: string, siteId: string, input: SitePatch): Promise<Site> {
    requireCustomerManage(actor, customerId, 'sites.manage');
    await this.find(customerId, siteId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const updated = await updateSite(tx, siteId, input);
      await this.record(tx, actor, 'updated', updated, changedFieldsOf(input));
      return updated;
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
    if (!typedNameMatches(confirmName, site.name)) throw namesMismatch();
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await this.removeBelow(tx, { siteId }, actor, this.ctx.now());
      await deleteSite(tx, siteId);
      await this.record(tx, actor, 'deleted', site, []);
      return serials;
    });
    this.link.disconnectAll(retired);
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
    const row = await findSiteRow(this.ctx.db, customerId, siteId);
    if (!row) throw notFound();
    return row;
  }
}
