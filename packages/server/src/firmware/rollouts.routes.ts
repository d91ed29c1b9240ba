import {
  ROLLOUT_ACTIONS,
  RolloutCreateSchema,
  RolloutDevicesPageSchema,
  RolloutDevicesQuerySchema,
  RolloutSchema,
  RolloutsPageSchema,
  RolloutsQuerySchema,
  RolloutTimelineSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { RolloutsService } from './rollouts.service.ts';

const security = [{ bearer: [] }];
const tags = ['firmware'];
const rolloutParams = z.object({ rolloutId: z.uuid('validation.invalid') });
const actionParams = rolloutParams.extend({
  action: z.enum(ROLLOUT_ACTIONS, { error: 'validation.select' }),
});

/** Staged firmware rollouts (docs/firmware.md "Rollouts"). */
export function rolloutsRoutes(app: App, rollouts: RolloutsService): void {
  app.get(
    '/firmware/rollouts',
    {
      schema: {
        tags,
        security,
        summary: 'Rollouts within the caller’s scope, newest first',
        querystring: RolloutsQuerySchema,
        response: { 200: RolloutsPageSchema, ...errorResponses },
      },
    },
    (request) => rollouts.list(actorOf(request), request.query),
  );
  app.post(
    '/firmware/rollouts',
    {
      schema: {
        tags,
        security,
        summary: 'Roll an image out over a place in waves (its devices start with the rollout job)',
        body: RolloutCreateSchema,
        response: { 201: RolloutSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await rollouts.create(actorOf(request), request.body)),
  );
  app.get(
    '/firmware/rollouts/:rolloutId',
    {
      schema: { tags, security, params: rolloutParams, response: { 200: RolloutSchema, ...errorResponses } },
    },
    (request) => rollouts.get(actorOf(request), request.params.rolloutId),
  );
  app.get(
    '/firmware/rollouts/:rolloutId/devices',
    {
      schema: {
        tags,
        security,
        summary: 'The rollout’s devices, by wave then serial',
        params: rolloutParams,
        querystring: RolloutDevicesQuerySchema,
        response: { 200: RolloutDevicesPageSchema, ...errorResponses },
      },
    },
    (request) => rollouts.devices(actorOf(request), request.params.rolloutId, request.query),
  );
  app.get(
    '/firmware/rollouts/:rolloutId/timeline',
    {
      schema: {
        tags,
        security,
        summary: 'The rollout’s devices per state group over its whole life (at most 240 points)',
        params: rolloutParams,
        response: { 200: RolloutTimelineSchema, ...errorResponses },
      },
    },
    (request) => rollouts.timeline(actorOf(request), request.params.rolloutId),
  );
  app.post(
    '/firmware/rollouts/:rolloutId/:action',
    {
      schema: {
        tags,
        security,
        summary: 'Pause, resume or cancel the rollout',
        params: actionParams,
        body: z.object({}).nullish(),
        response: { 200: RolloutSchema, ...errorResponses },
      },
    },
    (request) => rollouts.act(actorOf(request), request.params.rolloutId, request.params.action),
  );
}
