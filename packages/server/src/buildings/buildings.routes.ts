import {
  BuildingCreateSchema,
  BuildingSchema,
  BuildingUpdateSchema,
  ConfirmNameSchema,
  FloorCreateSchema,
  FloorSchema,
  FloorUpdateSchema,
  ListQuerySchema,
  listOf,
} from '@flowbox/shared';
import { z } from 'zod';
import { buildingParams, floorParams, siteParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { BuildingsService } from './buildings.service.ts';
import type { FloorsService } from './floors.service.ts';

const security = [{ bearer: [] }];
const sitePrefix = '/customers/:customerId/sites/:siteId';
const buildingPrefix = `${sitePrefix}/buildings/:buildingId`;

/** Buildings of a site and their floors, in the shape of the site calls (spec §2, §3). */
export function buildingsRoutes(app: App, buildings: BuildingsService, floors: FloorsService): void {
  let tags = ['buildings'];
  app.get(
    `${sitePrefix}/buildings/list`,
    {
      schema: {
        tags,
        security,
        params: siteParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(BuildingSchema), ...errorResponses },
      },
    },
    (request) => buildings.list(actorOf(request), request.params, request.query),
  );
  app.get(
    `${buildingPrefix}/info`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        response: { 200: BuildingSchema, ...errorResponses },
      },
    },
    (request) => buildings.info(actorOf(request), request.params),
  );
  app.post(
    `${sitePrefix}/buildings/create`,
    {
      schema: {
        tags,
        security,
        params: siteParams,
        body: BuildingCreateSchema,
        response: { 201: BuildingSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await buildings.create(actorOf(request), request.params, request.body)),
  );
  app.put(
    `${buildingPrefix}/update`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        body: BuildingUpdateSchema,
        response: { 200: BuildingSchema, ...errorResponses },
      },
    },
    (request) => buildings.update(actorOf(request), request.params, request.body),
  );
  app.delete(
    `${buildingPrefix}/delete`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a building with its floors, zones, water points and images (irreversible)',
        params: buildingParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await buildings.remove(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );

  tags = ['floors'];
  app.get(
    `${buildingPrefix}/floors/list`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(FloorSchema), ...errorResponses },
      },
    },
    (request) => floors.list(actorOf(request), request.params, request.query),
  );
  app.post(
    `${buildingPrefix}/floors/create`,
    {
      schema: {
        tags,
        security,
        params: buildingParams,
        body: FloorCreateSchema,
        response: { 201: FloorSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await floors.create(actorOf(request), request.params, request.body)),
  );
  app.put(
    `${buildingPrefix}/floors/:floorId/update`,
    {
      schema: {
        tags,
        security,
        params: floorParams,
        body: FloorUpdateSchema,
        response: { 200: FloorSchema, ...errorResponses },
      },
    },
    (request) => floors.update(actorOf(request), request.params, request.body),
  );
  app.delete(
    `${buildingPrefix}/floors/:floorId/delete`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a floor (irreversible); its zones stay in the building, on no floor',
        params: floorParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await floors.remove(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );
}
