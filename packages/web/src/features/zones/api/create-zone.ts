import type { Zone, ZoneCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zonesPath } from './get-zone.ts';

export const createZone = (customerId: string, siteId: string, buildingId: string, input: ZoneCreateInput) =>
  api.post<Zone>(`${zonesPath({ customerId, siteId, buildingId })}/create`, input);

export function useCreateZone(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ZoneCreateInput) => createZone(customerId, siteId, buildingId, input),
    // The building's zone count and zone list, the dashboards and the activity logs change with it.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', customerId] }),
  });
}
