import type { SubscriptionChoice, ZoneSubscription } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';
import { zoneSubscriptionPath } from './get-zone-subscription.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const chooseZoneSubscription = (zone: ZoneRef, choice: SubscriptionChoice) =>
  api.put<ZoneSubscription>(`${zoneSubscriptionPath(zone)}/update`, choice);

export function useChooseZoneSubscription(zone: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: SubscriptionChoice) => chooseZoneSubscription(zone, choice),
    // The zone's own answer shows its service level too (docs/billing.md).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: billingKey }),
        queryClient.invalidateQueries({ queryKey: ['customers', zone.customerId] }),
      ]),
  });
}
