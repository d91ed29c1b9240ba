import { z } from 'zod';
import { CURRENCIES } from './currencies.ts';
import { uuidField } from '../validation.ts';
import { BILLING_TYPES, PlanPricesSchema, PricingPlanSchema, SUBSCRIPTION_STATUSES } from './plans.ts';
import { VOLUME_UNITS } from '../domain/buildings.ts';
import { SERVICE_LEVELS } from '../domain/zones.ts';

/**
 * A zone's choice (spec §3, §5 "a zone needs a subscription attached"): a plan that applies to its
 * building's region and the service level. It starts on the building's today: never in the past,
 * whose consumption keeps the price it had.
 */
export const SubscriptionChoiceSchema = z.object({
  pricing_plan_id: z.uuid('validation.select'),
  service_level: z.enum(SERVICE_LEVELS, 'validation.select'),
});
export type SubscriptionChoice = z.input<typeof SubscriptionChoiceSchema>;

export const SubscriptionSchema = z.object({
  id: uuidField,
  zone_id: z.uuid(),
  pricing_plan_id: z.uuid(),
  pricing_plan_name: z.string(),
  service_level: z.enum(SERVICE_LEVELS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  start_date: z.string(),
  /** The day it was replaced (the next one starts that day); null while active. */
  end_date: z.string().nullable(),
  /** The next renewal, one billing period after the last (spec §4 subscription renewal). */
  renewal_date: z.string(),
  billing_type: z.enum(BILLING_TYPES),
  currency: z.enum(CURRENCIES),
  volume_unit: z.enum(VOLUME_UNITS),
  created_at: z.string(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

/** The zone's subscription page: what it has, what it had, and what it may choose. */
export const ZoneSubscriptionSchema = z.object({
  zone_id: z.uuid(),
  country: z.string(),
  current: SubscriptionSchema.nullable(),
  history: z.array(SubscriptionSchema),
  /** Plans that apply to the building's country and currency; empty: "No pricing plans for the region". */
  available_plans: z.array(
    PricingPlanSchema.omit({ versions: true }).extend({
      /** Its prices today in the building, and the coming ones with their date. */
      prices: PlanPricesSchema,
    }),
  ),
  /** Whom to ask for a plan when none applies (a provider manager's email). */
  contact_email: z.string().nullable(),
});
export type ZoneSubscription = z.infer<typeof ZoneSubscriptionSchema>;

/** The subscriptions screen (spec §2 /subscriptions): totals for the provider. */
export const SubscriptionsOverviewSchema = z.object({
  plan_count: z.number().int(),
  archived_plan_count: z.number().int(),
  active_subscription_count: z.number().int(),
  premium_subscription_count: z.number().int(),
  zone_count: z.number().int(),
  plans: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      is_default: z.boolean(),
      subscription_count: z.number().int(),
      premium_count: z.number().int(),
    }),
  ),
});
export type SubscriptionsOverview = z.infer<typeof SubscriptionsOverviewSchema>;
