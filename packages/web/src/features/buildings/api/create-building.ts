import type { Building, BuildingCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsPath } from './list-buildings.ts';

export const createBuilding = (customerId: string, siteId: string, input: BuildingCreateInput) =>
  api.post<Building>(`${buildingsPath(customerId, siteId)}/create`, input);

export function useCreateBuilding(customerId: string, siteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BuildingCreateInput) => createBuilding(customerId, siteId, input),
    // The site's building count and the dashboard's counts change too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', customerId] }),
  });
}
