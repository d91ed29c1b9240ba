import type { Zone } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

/** Every zone call is made under the zone's ids, one type for the whole app (lib/zone-ref.ts). */
export type { ZoneRef };

/** Under the building's key (features/buildings), so whatever refreshes a building refreshes its zones. */
export const zoneKey = ({ customerId, siteId, buildingId, zoneId }: ZoneRef) =>
  ['customers', customerId, 'sites', siteId, 'buildings', buildingId, 'zones', zoneId] as const;

export const zonesPath = ({ customerId, siteId, buildingId }: Omit<ZoneRef, 'zoneId'>) =>
  `/customers/${customerId}/sites/${siteId}/buildings/${buildingId}/zones`;

export const zonePath = (ref: ZoneRef) => `${zonesPath(ref)}/${ref.zoneId}`;

export const getZone = (ref: ZoneRef) => api.get<Zone>(`${zonePath(ref)}/info`);

export const zoneQueryOptions = (ref: ZoneRef) =>
  queryOptions({ queryKey: [...zoneKey(ref), 'info'], queryFn: () => getZone(ref) });

export const useZone = (ref: ZoneRef) => useQuery(zoneQueryOptions(ref));
