import type { Floor } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey, buildingsPath } from './list-buildings.ts';

export type FloorList = { items: Floor[]; total: number };

export const floorsKey = (customerId: string, siteId: string, buildingId: string) =>
  [...buildingsKey(customerId, siteId), buildingId, 'floors'] as const;

export const floorsPath = (customerId: string, siteId: string, buildingId: string) =>
  `${buildingsPath(customerId, siteId)}/${buildingId}/floors`;

/** Floors come in the order they were added (docs/hierarchy.md). */
export const listFloors = (customerId: string, siteId: string, buildingId: string) =>
  api.get<FloorList>(`${floorsPath(customerId, siteId, buildingId)}/list`, { limit: 500 });

export const floorsQueryOptions = (customerId: string, siteId: string, buildingId: string) =>
  queryOptions({
    queryKey: [...floorsKey(customerId, siteId, buildingId), 'list'],
    queryFn: () => listFloors(customerId, siteId, buildingId),
  });

export const useFloors = (customerId: string, siteId: string, buildingId: string) =>
  useQuery(floorsQueryOptions(customerId, siteId, buildingId));
