import { EventsPageSchema, EventsQuerySchema } from '@flowbox/shared';
import { z } from 'zod';
import { requireCustomerRead, requireRole, requireSiteRead } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import { listEvents } from './events.repo.ts';

const tags = ['events'];
const security = [{ bearer: [] }];
const customerParams = z.object({ customerId: z.uuid('validation.invalid') });
const siteParams = customerParams.extend({ siteId: z.uuid('validation.invalid') });

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
      requireRole(actor, 1, 2);
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
}
