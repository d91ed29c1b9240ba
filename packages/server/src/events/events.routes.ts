import { ROLES, EventsPageSchema, EventsQuerySchema } from '@flowbox/shared';
import { requireCustomerRead, requireRole, requireSiteRead } from '../access/access.ts';
import { findBuildingRow } from '../buildings/buildings.repo.ts';
import { notFound } from '../errors.ts';
import { buildingParams, customerParams, siteParams, zoneParams } from '../http/params.ts';
import { findZoneRow } from '../zones/zones.repo.ts';
import type { Db } from '../db/client.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import { listEvents } from './events.repo.ts';

const tags = ['events'];
const security = [{ bearer: [] }];

/** Activity log screens (spec §2): newest first, keyset-paginated, filtered by the four facets and dates. */
export function eventsRoutes(app: App, db: Db): void {
  app.get(
    '/customers/:customerId/events',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        querystring: EventsQuerySchema,
        response: { 200: EventsPageSchema, ...errorResponses },
      },
    },
    (request) => {
      const actor = actorOf(request);
      // spec §2: the customer's log is for provider and customer managers.
      requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
      requireCustomerRead(actor, request.params.customerId);
      return listEvents(db, { customerId: request.params.customerId }, request.query);
    },
  );

  app.get(
    '/customers/:customerId/sites/:siteId/events',
    {
      schema: {
        tags,
        security,
        params: siteParams,
        querystring: EventsQuerySchema,
        response: { 200: EventsPageSchema, ...errorResponses },
      },
    },
    (request) => {
      requireSiteRead(actorOf(request), request.params.customerId, request.params.siteId);
      return listEvents(
        db,
        { customerId: request.params.customerId, siteId: request.params.siteId },
        request.query,
      );
    },
  );
  app.get(
    '/customers/:customerId/sites/:siteId/buildings/:buildingId/events',
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        querystring: EventsQuerySchema,
        response: { 200: EventsPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { customerId, siteId, buildingId } = request.params;
      requireSiteRead(actorOf(request), customerId, siteId);
      if (!(await findBuildingRow(db, request.params))) throw notFound();
      return listEvents(db, { customerId, siteId, buildingId }, request.query);
    },
  );
  app.get(
    '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId/events',
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        querystring: EventsQuerySchema,
        response: { 200: EventsPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { customerId, siteId, buildingId, zoneId } = request.params;
      requireSiteRead(actorOf(request), customerId, siteId);
      if (!(await findZoneRow(db, request.params))) throw notFound();
      return listEvents(db, { customerId, siteId, buildingId, zoneId }, request.query);
    },
  );
}
