import { EventsPageSchema, EventsQuerySchema } from '@flowbox/shared';
import { buildingParams, customerParams, siteParams, zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { EventsService } from './events.service.ts';

const tags = ['events'];
const security = [{ bearer: [] }];

/** Activity log screens (spec §2): newest first, keyset-paginated, filtered by the four facets and dates. */
export function eventsRoutes(app: App, events: EventsService): void {
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
    (request) => events.ofCustomer(actorOf(request), request.params.customerId, request.query),
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
    (request) => events.ofSite(actorOf(request), request.params, request.query),
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
    (request) => events.ofBuilding(actorOf(request), request.params, request.query),
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
    (request) => events.ofZone(actorOf(request), request.params, request.query),
  );
}
