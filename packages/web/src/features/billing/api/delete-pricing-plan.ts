import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';

/** Deleted, or archived when zones have subscribed to it (docs/billing.md). */
export const deletePricingPlan = (planId: string, confirmName: string) =>
  api.delete<{ archived: boolean }>(`/pricing_plans/${planId}/delete`, { confirm_name: confirmName });

export function useDeletePricingPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, confirmName }: { planId: string; confirmName: string }) =>
      deletePricingPlan(planId, confirmName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: billingKey }),
  });
}
