import { useRequiredParam } from '../../../lib/params.ts';
import type { ZoneRef } from '../api/get-zone.ts';

/** The building's ids from the route (paths.ts guarantees them on every zone screen). */
export function useBuildingRef(): Omit<ZoneRef, 'zoneId'> {
  return {
    customerId: useRequiredParam('customerId'),
    siteId: useRequiredParam('siteId'),
    buildingId: useRequiredParam('buildingId'),
  };
}

export function useZoneRef(): ZoneRef {
  return { ...useBuildingRef(), zoneId: useRequiredParam('zoneId') };
}
