import type { Zone } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { buildingsKey, buildingsPath } from './list-buildings.ts';

export type ZoneList = { items: Zone[]; total: number };

/** The zones of one building, listed on its overview (the zone screens are the zones feature's). */
export const listBuildingZones = (customerId: string, siteId: string, buildingId: string) =>
  api.get<ZoneList>(`${buildingsPath(customerId, siteId)}/${buildingId}/zones/list`, { limit: 500 });

export const buildingZonesQueryOptions = (customerId: string, siteId: string, buildingId: string) =>
  queryOptions({
    queryKey: [...buildingsKey(customerId, siteId), buildingId, 'zones', 'list'],
    queryFn: () => listBuildingZones(customerId, siteId, buildingId),
  });

export const useBuildingZones = (customerId: string, siteId: string, buildingId: string) =>
  useQuery(buildingZonesQueryOptions(customerId, siteId, buildingId));
