import type { PricingPlan } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type PricingPlanList = { items: PricingPlan[]; total: number };

/** Everything billing caches lives under this key: a plan change refreshes lists, overview and zones' choices. */
export const billingKey = ['billing'] as const;
export const plansKey = [...billingKey, 'pricing-plans'] as const;

export const listPricingPlans = (archived: boolean) =>
  api.get<PricingPlanList>('/pricing_plans/list', { archived: String(archived), limit: 500 });

export const pricingPlansQueryOptions = (archived: boolean) =>
  queryOptions({ queryKey: [...plansKey, 'list', archived], queryFn: () => listPricingPlans(archived) });

export const usePricingPlans = (archived: boolean) => useQuery(pricingPlansQueryOptions(archived));
