import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsPath } from './list-buildings.ts';

/** spec §5: the building's name, typed by the user, confirms the deletion. */
export const deleteBuilding = (customerId: string, siteId: string, buildingId: string, confirmName: string) =>
  api.delete<void>(`${buildingsPath(customerId, siteId)}/${buildingId}/delete`, {
    confirm_name: confirmName,
  });

export function useDeleteBuilding(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => deleteBuilding(customerId, siteId, buildingId, confirmName),
    // Its floors, zones and images went with it: everything else of the customer is refreshed (the
    // site's count, the dashboard), but not the deleted building's own queries, which would answer 404
    // while its page is still on screen.
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: ['customers', customerId],
        predicate: (query) => !query.queryKey.includes(buildingId),
      }),
  });
}
