import type { Site, SiteCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const createSite = (customerId: string, input: SiteCreateInput) =>
  api.post<Site>(`/customers/${customerId}/sites/create`, input);

export function useCreateSite(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SiteCreateInput) => createSite(customerId, input),
    // The customer's site count changes too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers'] }),
  });
}
