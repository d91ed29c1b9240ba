import {
  ConfirmNameSchema,
  listOf,
  OccurrencesQuerySchema,
  OccurrencesSchema,
  ScheduleInputSchema,
  ScheduleSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { SchedulesService } from './schedules.service.ts';

const security = [{ bearer: [] }];
const tags = ['schedules'];
const zonePrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId';
const scheduleParams = zoneParams.extend({ scheduleId: z.uuid('validation.invalid') });

/** Scheduled closings of a zone, nested like the zone's other calls (spec §2, §3 Schedule). */
export function schedulesRoutes(app: App, schedules: SchedulesService): void {
  app.get(
    `${zonePrefix}/schedules/list`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        response: { 200: listOf(ScheduleSchema), ...errorResponses },
      },
    },
    (request) => schedules.list(actorOf(request), request.params),
  );
  app.get(
    `${zonePrefix}/schedules/occurrences`,
    {
      schema: {
        tags,
        security,
        summary: "The zone's next closing windows (running ones included), in the building's time zone",
        params: zoneParams,
        querystring: OccurrencesQuerySchema,
        response: { 200: OccurrencesSchema, ...errorResponses },
      },
    },
    (request) => schedules.occurrences(actorOf(request), request.params, request.query.limit),
  );
  app.get(
    `${zonePrefix}/schedules/:scheduleId/info`,
    {
      schema: {
        tags,
        security,
        params: scheduleParams,
        response: { 200: ScheduleSchema, ...errorResponses },
      },
    },
    (request) => schedules.info(actorOf(request), request.params),
  );
  app.post(
    `${zonePrefix}/schedules/create`,
    {
      schema: {
        tags,
        security,
        summary: 'Create a scheduled closing (the zone must allow scheduled closings)',
        params: zoneParams,
        body: ScheduleInputSchema,
        response: { 201: ScheduleSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await schedules.create(actorOf(request), request.params, request.body)),
  );
  app.put(
    `${zonePrefix}/schedules/:scheduleId/update`,
    {
      schema: {
        tags,
        security,
        summary: 'Replace a scheduled closing (every field is sent again)',
        params: scheduleParams,
        body: ScheduleInputSchema,
        response: { 200: ScheduleSchema, ...errorResponses },
      },
    },
    (request) => schedules.update(actorOf(request), request.params, request.body),
  );
  app.delete(
    `${zonePrefix}/schedules/:scheduleId/delete`,
    {
      schema: {
        tags,
        security,
        summary:
          'Delete a scheduled closing (its label typed to confirm); a window already closed still opens',
        params: scheduleParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await schedules.remove(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );
}
