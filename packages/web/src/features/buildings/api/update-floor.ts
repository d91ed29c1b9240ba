import type { Floor, FloorUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { floorsKey, floorsPath } from './list-floors.ts';

export const updateFloor = (
  customerId: string,
  siteId: string,
  buildingId: string,
  floorId: string,
  input: FloorUpdateInput,
) => api.put<Floor>(`${floorsPath(customerId, siteId, buildingId)}/${floorId}/update`, input);

export function useUpdateFloor(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ floorId, input }: { floorId: string; input: FloorUpdateInput }) =>
      updateFloor(customerId, siteId, buildingId, floorId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: floorsKey(customerId, siteId, buildingId) }),
  });
}
