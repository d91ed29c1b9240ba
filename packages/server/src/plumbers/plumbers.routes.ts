import {
  ConfirmNameSchema,
  listOf,
  MapSettingsSchema,
  NearestPlumbersQuerySchema,
  NearestPlumbersSchema,
  PlumberCreateSchema,
  PlumberListQuerySchema,
  PlumberSchema,
  PlumberUpdateSchema,
  SiteMapQuerySchema,
  SiteMapSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { PlumbersService } from './plumbers.service.ts';

const security = [{ bearer: [] }];
const plumberParams = z.object({ plumberId: z.uuid('validation.invalid') });
const siteParams = z.object({
  customerId: z.uuid('validation.invalid'),
  siteId: z.uuid('validation.invalid'),
});

/** The plumber directory, the nearest plumbers of a site, and the maps' calls (docs/maps.md). */
export function plumbersRoutes(app: App, plumbers: PlumbersService): void {
  const tags = ['plumbers'];
  app.get(
    '/plumbers/list',
    {
      schema: {
        tags,
        security,
        summary: "The directory entries the caller sees: its customer's and the provider's shared ones",
        querystring: PlumberListQuerySchema,
        response: { 200: listOf(PlumberSchema), ...errorResponses },
      },
    },
    (request) => plumbers.list(actorOf(request), request.query),
  );
  app.post(
    '/plumbers/create',
    {
      schema: {
        tags,
        security,
        summary: "A directory entry: a customer's (customer_id), or shared by the provider (none)",
        body: PlumberCreateSchema,
        response: { 201: PlumberSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await plumbers.create(actorOf(request), request.body)),
  );
  app.get(
    '/plumbers/:plumberId/info',
    {
      schema: { tags, security, params: plumberParams, response: { 200: PlumberSchema, ...errorResponses } },
    },
    (request) => plumbers.info(actorOf(request), request.params.plumberId),
  );
  app.put(
    '/plumbers/:plumberId/update',
    {
      schema: {
        tags,
        security,
        params: plumberParams,
        body: PlumberUpdateSchema,
        response: { 200: PlumberSchema, ...errorResponses },
      },
    },
    (request) => plumbers.update(actorOf(request), request.params.plumberId, request.body),
  );
  app.delete(
    '/plumbers/:plumberId/delete',
    {
      schema: {
        tags,
        security,
        summary: 'Deletes an entry; confirm_name is its company',
        params: plumberParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await plumbers.remove(actorOf(request), request.params.plumberId, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/customers/:customerId/sites/:siteId/plumbers/nearest',
    {
      schema: {
        tags,
        security,
        summary:
          'The located entries the site’s customer sees, nearest first, and whether each covers the site',
        params: siteParams,
        querystring: NearestPlumbersQuerySchema,
        response: { 200: NearestPlumbersSchema, ...errorResponses },
      },
    },
    (request) =>
      plumbers.nearest(
        actorOf(request),
        request.params.customerId,
        request.params.siteId,
        request.query.limit,
      ),
  );
  app.get(
    '/map/settings',
    {
      schema: {
        tags: ['maps'],
        security,
        summary: 'The tile server the maps load (MAP_TILE_URL) and its attribution',
        response: { 200: MapSettingsSchema, ...errorResponses },
      },
    },
    (request) => plumbers.mapSettings(actorOf(request)),
  );
  app.get(
    '/map/sites',
    {
      schema: {
        tags: ['maps'],
        security,
        summary: 'The sites the caller sees, with their open alerts, offline flowboxes and closed valves',
        querystring: SiteMapQuerySchema,
        response: { 200: SiteMapSchema, ...errorResponses },
      },
    },
    (request) => plumbers.sites(actorOf(request), request.query.customer_id),
  );
}
