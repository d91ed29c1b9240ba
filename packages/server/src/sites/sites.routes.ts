import {
  ConfirmNameSchema,
  ListQuerySchema,
  listOf,
  SiteCreateSchema,
  SiteSchema,
  SiteUpdateSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { SitesService } from './sites.service.ts';

const security = [{ bearer: [] }];
const customerParams = z.object({ customerId: z.uuid('validation.invalid') });
const siteParams = customerParams.extend({ siteId: z.uuid('validation.invalid') });

/** A customer's sites, in the shape of the spec's manager calls (§7). */
export function sitesRoutes(app: App, sites: SitesService): void {
  const tags = ['sites'];
  app.get(
    '/customers/:customerId/sites/list',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(SiteSchema), ...errorResponses },
      },
    },
    (request) => sites.list(actorOf(request), request.params.customerId, request.query),
  );
  app.get(
    '/customers/:customerId/sites/:siteId/info',
    { schema: { tags, security, params: siteParams, response: { 200: SiteSchema, ...errorResponses } } },
    (request) => sites.info(actorOf(request), request.params.customerId, request.params.siteId),
  );
  app.post(
    '/customers/:customerId/sites/create',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        body: SiteCreateSchema,
        response: { 201: SiteSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sites.create(actorOf(request), request.params.customerId, request.body)),
  );
  app.put(
    '/customers/:customerId/sites/:siteId/update',
    {
      schema: {
        tags,
        security,
        params: siteParams,
        body: SiteUpdateSchema,
        response: { 200: SiteSchema, ...errorResponses },
      },
    },
    (request) =>
      sites.update(actorOf(request), request.params.customerId, request.params.siteId, request.body),
  );
  app.delete(
    '/customers/:customerId/sites/:siteId/delete',
    {
      schema: {
        tags,
        security,
        params: siteParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await sites.remove(
        actorOf(request),
        request.params.customerId,
        request.params.siteId,
        request.body.confirm_name,
      );
      return reply.status(204).send(null);
    },
  );
}
