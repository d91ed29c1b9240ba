import type { Building } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey, buildingsPath } from './list-buildings.ts';

export const getBuilding = (customerId: string, siteId: string, buildingId: string) =>
  api.get<Building>(`${buildingsPath(customerId, siteId)}/${buildingId}/info`);

export const buildingQueryOptions = (customerId: string, siteId: string, buildingId: string) =>
  queryOptions({
    queryKey: [...buildingsKey(customerId, siteId), buildingId, 'info'],
    queryFn: () => getBuilding(customerId, siteId, buildingId),
  });

export const useBuilding = (
  customerId: string,
  siteId: string,
  buildingId: string,
  options: { enabled?: boolean } = {},
) => useQuery({ ...buildingQueryOptions(customerId, siteId, buildingId), enabled: options.enabled ?? true });
