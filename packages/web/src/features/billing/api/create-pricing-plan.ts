import type { PricingPlan, PricingPlanCreate } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';

export const createPricingPlan = (input: PricingPlanCreate) =>
  api.post<PricingPlan>('/pricing_plans/create', input);

export function useCreatePricingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPricingPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
