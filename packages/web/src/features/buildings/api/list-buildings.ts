import type { Building } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type BuildingList = { items: Building[]; total: number };

/** Under the customer's key, so whatever refreshes a customer refreshes its buildings too. */
export const buildingsKey = (customerId: string, siteId: string) =>
  ['customers', customerId, 'sites', siteId, 'buildings'] as const;

export const buildingsPath = (customerId: string, siteId: string) =>
  `/customers/${customerId}/sites/${siteId}/buildings`;

export const listBuildings = (customerId: string, siteId: string, search?: string) =>
  api.get<BuildingList>(`${buildingsPath(customerId, siteId)}/list`, { search, limit: 500 });

export const buildingsQueryOptions = (customerId: string, siteId: string, search?: string) =>
  queryOptions({
    queryKey: [...buildingsKey(customerId, siteId), 'list', search ?? ''],
    queryFn: () => listBuildings(customerId, siteId, search),
  });

export const useBuildings = (customerId: string, siteId: string, search?: string) =>
  useQuery(buildingsQueryOptions(customerId, siteId, search));
