import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey } from './list-buildings.ts';
import { floorsPath } from './list-floors.ts';

/** spec §5: the floor's label, typed by the user, confirms the deletion. */
export const deleteFloor = (
  customerId: string,
  siteId: string,
  buildingId: string,
  floorId: string,
  confirmName: string,
) =>
  api.delete<void>(`${floorsPath(customerId, siteId, buildingId)}/${floorId}/delete`, {
    confirm_name: confirmName,
  });

export function useDeleteFloor(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ floorId, confirmName }: { floorId: string; confirmName: string }) =>
      deleteFloor(customerId, siteId, buildingId, floorId, confirmName),
    // Its zones stay in the building, detached (floor_id null): zone lists change too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsKey(customerId, siteId) }),
  });
}
