import type { Floor, FloorCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey } from './list-buildings.ts';
import { floorsPath } from './list-floors.ts';

export const createFloor = (
  customerId: string,
  siteId: string,
  buildingId: string,
  input: FloorCreateInput,
) => api.post<Floor>(`${floorsPath(customerId, siteId, buildingId)}/create`, input);

export function useCreateFloor(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FloorCreateInput) => createFloor(customerId, siteId, buildingId, input),
    // The building's floor_count changes with its floors.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsKey(customerId, siteId) }),
  });
}
