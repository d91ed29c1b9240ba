import {
  AlertSnoozeSchema,
  PushKeySchema,
  PushSnoozeSchema,
  PushSubscribeSchema,
  PushSubscriptionSchema,
  PushUnsubscribeSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { PushService } from './push.service.ts';

const tags = ['push'];
const security = [{ bearer: [] }];

/** Web Push for the signed-in user's browsers, and their snoozes (issue 33, docs/push.md). */
export function pushRoutes(app: App, push: PushService): void {
  app.get(
    '/push/key',
    {
      schema: {
        tags,
        security,
        summary: "The server's VAPID public key, the applicationServerKey a browser subscribes with",
        response: { 200: PushKeySchema, ...errorResponses },
      },
    },
    () => push.key(),
  );
  app.get(
    '/push/subscriptions',
    {
      schema: {
        tags,
        security,
        summary: "The caller's own browsers that receive critical alerts by Web Push",
        response: { 200: z.object({ items: z.array(PushSubscriptionSchema) }), ...errorResponses },
      },
    },
    (request) => push.list(actorOf(request)),
  );
  app.post(
    '/push/subscriptions',
    {
      schema: {
        tags,
        security,
        summary:
          "Subscribes the caller's browser (its PushSubscription: an https endpoint of at most 2,000 characters and its keys); the same endpoint again replaces its keys",
        body: PushSubscribeSchema,
        response: { 201: PushSubscriptionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const saved = await push.subscribe(actorOf(request), request.body, request.headers['user-agent']);
      return reply.status(201).send(saved);
    },
  );
  app.delete(
    '/push/subscriptions',
    {
      schema: {
        tags,
        security,
        summary: "Removes one of the caller's browsers, by its endpoint; another's is not found",
        body: PushUnsubscribeSchema,
        response: { 204: z.null().describe('Removed'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await push.unsubscribe(actorOf(request), request.body.endpoint);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/alerts/:alertId/snooze',
    {
      schema: {
        tags,
        security,
        summary:
          "Snooze from a notification: the caller is pushed no alert of this one's category in its zone for the minutes given (15 to 1,440); emails and other categories still reach them",
        params: z.object({ alertId: z.uuid('validation.invalid') }),
        body: AlertSnoozeSchema,
        response: { 200: PushSnoozeSchema, ...errorResponses },
      },
    },
    (request) => push.snooze(actorOf(request), request.params.alertId, request.body.minutes),
  );
}
