import type { ZoneWater } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, type ZoneRef } from '../../zones/index.ts';

/**
 * The zone's water: on or off, since when and by whom (issue 33). Under the zone's key, which an
 * automation message refreshes; keyed by the valve the page shows too, so a valve that moved (a
 * live flowbox message) reads it again.
 */
export const zoneWaterQueryOptions = (ref: ZoneRef, shownValve: string | null) =>
  queryOptions({
    queryKey: [...zoneKey(ref), 'water', shownValve],
    queryFn: () =>
      api.get<ZoneWater>(
        `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/water`,
      ),
  });

export const useZoneWater = (ref: ZoneRef, shownValve: string | null) =>
  useQuery(zoneWaterQueryOptions(ref, shownValve));
