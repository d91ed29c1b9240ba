import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sitesKey } from './list-sites.ts';

/** spec §5: the site's name, typed by the user, confirms the deletion. */
export const deleteSite = (customerId: string, siteId: string, confirmName: string) =>
  api.delete<void>(`/customers/${customerId}/sites/${siteId}/delete`, { confirm_name: confirmName });

export function useDeleteSite(customerId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => deleteSite(customerId, siteId, confirmName),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...sitesKey(customerId), 'info', siteId] });
      // Customer counts and site managers' site lists change with it.
      return queryClient.invalidateQueries({ queryKey: ['customers'] });
    },
  });
}
