import {
  ConfirmNameSchema,
  listOf,
  PricingPlanCreateSchema,
  PricingPlanListQuerySchema,
  PricingPlanSchema,
  PricingPlanUpdateSchema,
  SubscriptionChoiceSchema,
  SubscriptionsOverviewSchema,
  ZoneSubscriptionSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { PricingPlansService } from './plans.service.ts';
import type { ZoneSubscriptionsService } from './subscriptions.service.ts';

const security = [{ bearer: [] }];
const planParams = z.object({ pricingPlanId: z.uuid('validation.invalid') });
const zoneSubscription =
  '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId/subscription';

/** Pricing plans (provider managers) and each zone's subscription (spec §2, §3, §5). */
export function billingRoutes(
  app: App,
  plans: PricingPlansService,
  subscriptions: ZoneSubscriptionsService,
): void {
  let tags = ['pricing plans'];
  app.get(
    '/pricing_plans/list',
    {
      schema: {
        tags,
        security,
        querystring: PricingPlanListQuerySchema,
        response: { 200: listOf(PricingPlanSchema), ...errorResponses },
      },
    },
    (request) => plans.list(actorOf(request), request.query),
  );
  app.get(
    '/pricing_plans/:pricingPlanId/info',
    {
      schema: { tags, security, params: planParams, response: { 200: PricingPlanSchema, ...errorResponses } },
    },
    (request) => plans.info(actorOf(request), request.params.pricingPlanId),
  );
  app.post(
    '/pricing_plans/create',
    {
      schema: {
        tags,
        security,
        body: PricingPlanCreateSchema,
        response: { 201: PricingPlanSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await plans.create(actorOf(request), request.body)),
  );
  app.put(
    '/pricing_plans/:pricingPlanId/update',
    {
      schema: {
        tags,
        security,
        summary: 'Change a plan; with new_price, a new price from its date (the current one is archived)',
        params: planParams,
        body: PricingPlanUpdateSchema,
        response: { 200: PricingPlanSchema, ...errorResponses },
      },
    },
    (request) => plans.update(actorOf(request), request.params.pricingPlanId, request.body),
  );
  app.delete(
    '/pricing_plans/:pricingPlanId/delete',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a plan, or archive it when zones have subscribed to it',
        params: planParams,
        body: ConfirmNameSchema,
        response: { 200: z.object({ archived: z.boolean() }), ...errorResponses },
      },
    },
    (request) => plans.remove(actorOf(request), request.params.pricingPlanId, request.body.confirm_name),
  );

  tags = ['subscriptions'];
  app.get(
    '/subscriptions/overview',
    { schema: { tags, security, response: { 200: SubscriptionsOverviewSchema, ...errorResponses } } },
    (request) => subscriptions.overview(actorOf(request)),
  );
  app.get(
    `${zoneSubscription}/info`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        response: { 200: ZoneSubscriptionSchema, ...errorResponses },
      },
    },
    (request) => subscriptions.info(actorOf(request), request.params),
  );
  app.put(
    `${zoneSubscription}/update`,
    {
      schema: {
        tags,
        security,
        summary: "Choose or change the zone's plan and service level, from today",
        params: zoneParams,
        body: SubscriptionChoiceSchema,
        response: { 200: ZoneSubscriptionSchema, ...errorResponses },
      },
    },
    (request) => subscriptions.choose(actorOf(request), request.params, request.body),
  );
}
