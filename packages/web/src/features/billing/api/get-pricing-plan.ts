import type { PricingPlan } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plansKey } from './list-pricing-plans.ts';

export const getPricingPlan = (planId: string) => api.get<PricingPlan>(`/pricing_plans/${planId}/info`);

export const pricingPlanQueryOptions = (planId: string) =>
  queryOptions({ queryKey: [...plansKey, planId, 'info'], queryFn: () => getPricingPlan(planId) });

export const usePricingPlan = (planId: string) => useQuery(pricingPlanQueryOptions(planId));
