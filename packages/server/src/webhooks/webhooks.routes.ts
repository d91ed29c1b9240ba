import {
  WebhookCreateSchema,
  WebhookDeliveriesPageSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { customerParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { WebhooksService } from './webhooks.service.ts';

const tags = ['webhooks'];
const security = [{ bearer: [] }];
const webhookParams = customerParams.extend({ webhookId: z.uuid('validation.invalid') });
/** The calls that take no body accept none, or an empty object. */
const noBody = z.object({}).nullish();

/** A customer's webhooks (issue 33, docs/webhooks.md), in the shape of the spec's manager calls (§7). */
export function webhooksRoutes(app: App, webhooks: WebhooksService): void {
  app.get(
    '/customers/:customerId/webhooks/list',
    {
      schema: {
        tags,
        security,
        summary: "The customer's webhooks, without their secrets",
        params: customerParams,
        response: { 200: z.object({ items: z.array(WebhookSchema) }), ...errorResponses },
      },
    },
    (request) => webhooks.list(actorOf(request), request.params.customerId),
  );
  app.post(
    '/customers/:customerId/webhooks/create',
    {
      schema: {
        tags,
        security,
        summary:
          'Adds a webhook (an https address and its events); the answer holds its secret, shown this once',
        params: customerParams,
        body: WebhookCreateSchema,
        response: { 201: WebhookWithSecretSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await webhooks.create(actorOf(request), request.params.customerId, request.body)),
  );
  app.get(
    '/customers/:customerId/webhooks/:webhookId/info',
    {
      schema: {
        tags,
        security,
        params: webhookParams,
        response: { 200: WebhookSchema, ...errorResponses },
      },
    },
    (request) => webhooks.info(actorOf(request), request.params.customerId, request.params.webhookId),
  );
  app.put(
    '/customers/:customerId/webhooks/:webhookId/update',
    {
      schema: {
        tags,
        security,
        summary:
          'Changes its address, events, description or enabled flag; enabling it again clears its failures',
        params: webhookParams,
        body: WebhookUpdateSchema,
        response: { 200: WebhookSchema, ...errorResponses },
      },
    },
    (request) =>
      webhooks.update(actorOf(request), request.params.customerId, request.params.webhookId, request.body),
  );
  app.delete(
    '/customers/:customerId/webhooks/:webhookId/delete',
    {
      schema: {
        tags,
        security,
        summary: 'Deletes the webhook and its delivery log',
        params: webhookParams,
        body: noBody,
        response: { 204: z.null().describe('Deleted'), ...errorResponses },
      },
    },
    async (request, reply) => {
      await webhooks.remove(actorOf(request), request.params.customerId, request.params.webhookId);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/customers/:customerId/webhooks/:webhookId/rotate_secret',
    {
      schema: {
        tags,
        security,
        summary: 'Gives the webhook a new secret, answered this once; the old one signs nothing from now on',
        params: webhookParams,
        body: noBody,
        response: { 200: WebhookWithSecretSchema, ...errorResponses },
      },
    },
    (request) => webhooks.rotateSecret(actorOf(request), request.params.customerId, request.params.webhookId),
  );
  app.post(
    '/customers/:customerId/webhooks/:webhookId/test',
    {
      schema: {
        tags,
        security,
        summary: 'Sends a webhook.test event to this webhook now; its delivery log tells how it went',
        params: webhookParams,
        body: noBody,
        response: { 202: WebhookDeliverySchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await webhooks.sendTest(actorOf(request), request.params.customerId, request.params.webhookId)),
  );
  app.get(
    '/customers/:customerId/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        security,
        summary:
          "The webhook's deliveries, newest first, kept 30 days: status, tries, the receiver's answer, next try",
        params: webhookParams,
        querystring: WebhookDeliveriesQuerySchema,
        response: { 200: WebhookDeliveriesPageSchema, ...errorResponses },
      },
    },
    (request) =>
      webhooks.deliveries(
        actorOf(request),
        request.params.customerId,
        request.params.webhookId,
        request.query,
      ),
  );
}
