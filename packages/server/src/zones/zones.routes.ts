import {
  ConfirmNameSchema,
  ListQuerySchema,
  listOf,
  WaterPointCreateSchema,
  WaterPointSchema,
  WaterPointUpdateSchema,
  ZoneCreateSchema,
  ZoneDirectoryQuerySchema,
  ZoneSchema,
  ZoneSummarySchema,
  ZoneUpdateSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { buildingParams, customerParams, waterPointParams, zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { WaterPointsService } from './water-points.service.ts';
import type { ZonesService } from './zones.service.ts';

const security = [{ bearer: [] }];
const buildingPrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId';
const zonePrefix = `${buildingPrefix}/zones/:zoneId`;

/** Zones of a building and their water points (spec §2, §3). */
export function zonesRoutes(app: App, zones: ZonesService, waterPoints: WaterPointsService): void {
  let tags = ['zones'];
  app.get(
    '/customers/:customerId/zones/list',
    {
      schema: {
        tags,
        security,
        summary: "Zones across the customer's sites that the caller may see",
        params: customerParams,
        querystring: ZoneDirectoryQuerySchema,
        response: { 200: listOf(ZoneSummarySchema), ...errorResponses },
      },
    },
    (request) => zones.directory(actorOf(request), request.params.customerId, request.query),
  );
  app.get(
    `${buildingPrefix}/zones/list`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(ZoneSchema), ...errorResponses },
      },
    },
    (request) => zones.list(actorOf(request), request.params, request.query),
  );
  app.get(
    `${zonePrefix}/info`,
    { schema: { tags, security, params: zoneParams, response: { 200: ZoneSchema, ...errorResponses } } },
    (request) => zones.info(actorOf(request), request.params, request.heardMark),
  );
  app.post(
    `${buildingPrefix}/zones/create`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        body: ZoneCreateSchema,
        response: { 201: ZoneSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await zones.create(actorOf(request), request.params, request.body)),
  );
  app.put(
    `${zonePrefix}/update`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        body: ZoneUpdateSchema,
        response: { 200: ZoneSchema, ...errorResponses },
      },
    },
    (request) => zones.update(actorOf(request), request.params, request.body),
  );
  app.delete(
    `${zonePrefix}/delete`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a zone with its water points (irreversible)',
        params: zoneParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await zones.remove(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );

  tags = ['water points'];
  app.get(
    `${zonePrefix}/water_points/list`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(WaterPointSchema), ...errorResponses },
      },
    },
    (request) => waterPoints.list(actorOf(request), request.params, request.query),
  );
  app.post(
    `${zonePrefix}/water_points/create`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        body: WaterPointCreateSchema,
        response: { 201: WaterPointSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await waterPoints.create(actorOf(request), request.params, request.body)),
  );
  app.put(
    `${zonePrefix}/water_points/:waterPointId/update`,
    {
      schema: {
        tags,
        security,
        params: waterPointParams,
        body: WaterPointUpdateSchema,
        response: { 200: WaterPointSchema, ...errorResponses },
      },
    },
    (request) => waterPoints.update(actorOf(request), request.params, request.body),
  );
  app.delete(
    `${zonePrefix}/water_points/:waterPointId/delete`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a water point (irreversible)',
        params: waterPointParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await waterPoints.remove(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );
}
