import type { PricingPlan, PricingPlanUpdate } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';

export const updatePricingPlan = (planId: string, input: PricingPlanUpdate) =>
  api.put<PricingPlan>(`/pricing_plans/${planId}/update`, input);

export function useUpdatePricingPlan(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PricingPlanUpdate) => updatePricingPlan(planId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
