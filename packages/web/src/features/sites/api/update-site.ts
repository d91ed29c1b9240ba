import type { Site, SiteUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sitesKey } from './list-sites.ts';

export const updateSite = (customerId: string, siteId: string, input: SiteUpdateInput) =>
  api.put<Site>(`/customers/${customerId}/sites/${siteId}/update`, input);

export function useUpdateSite(customerId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SiteUpdateInput) => updateSite(customerId, siteId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sitesKey(customerId) }),
  });
}
