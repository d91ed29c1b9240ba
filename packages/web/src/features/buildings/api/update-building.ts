import type { Building, BuildingUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey, buildingsPath } from './list-buildings.ts';

export const updateBuilding = (
  customerId: string,
  siteId: string,
  buildingId: string,
  input: BuildingUpdateInput,
) => api.put<Building>(`${buildingsPath(customerId, siteId)}/${buildingId}/update`, input);

export function useUpdateBuilding(customerId: string, siteId: string, buildingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BuildingUpdateInput) => updateBuilding(customerId, siteId, buildingId, input),
    // Zones read their effective opening hours and price from the building (docs/hierarchy.md).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsKey(customerId, siteId) }),
  });
}
