import { zoneKey, type ZoneRef } from '../../zones/index.ts';

/** The zone's scheduled-closing calls (nested like the zone's other calls). */
export const schedulesPath = (ref: ZoneRef) =>
  `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/schedules`;

/** Under the zone's key, so whatever refreshes the zone refreshes its schedules. */
export const schedulesKey = (ref: ZoneRef) => [...zoneKey(ref), 'schedules'] as const;
