import { ROLES, type EventsPage, type EventsQuery } from '@flowbox/shared';
import { requireCustomerRead, requireRole, requireSiteManagerRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { notFound } from '../errors.ts';
import type { BuildingPath, SitePath, ZonePath } from '../http/params.ts';
import { buildingExists, listEvents, zoneExists } from './events.repo.ts';

/** Activity log screens (spec §2): who may read which log, and the page of it. */
export class EventsService {
  constructor(private readonly ctx: Context) {}

  ofCustomer(actor: Actor, customerId: string, query: EventsQuery): Promise<EventsPage> {
    // spec §2: the customer's log is for provider and customer managers.
    requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
    requireCustomerRead(actor, customerId);
    return listEvents(this.ctx.db, { customerId }, query);
  }

  ofSite(actor: Actor, { customerId, siteId }: SitePath, query: EventsQuery): Promise<EventsPage> {
    requireSiteManagerRead(actor, customerId, siteId);
    return listEvents(this.ctx.db, { customerId, siteId }, query);
  }

  async ofBuilding(actor: Actor, path: BuildingPath, query: EventsQuery): Promise<EventsPage> {
    const { customerId, siteId, buildingId } = path;
    requireSiteManagerRead(actor, customerId, siteId);
    if (!(await buildingExists(this.ctx.db, path))) throw notFound();
    return listEvents(this.ctx.db, { customerId, siteId, buildingId }, query);
  }

  async ofZone(actor: Actor, path: ZonePath, query: EventsQuery): Promise<EventsPage> {
    const { customerId, siteId, buildingId, zoneId } = path;
    requireSiteManagerRead(actor, customerId, siteId);
    if (!(await zoneExists(this.ctx.db, path))) throw notFound();
    return listEvents(this.ctx.db, { customerId, siteId, buildingId, zoneId }, query);
  }
}
