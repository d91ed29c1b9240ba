import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const automationPath = (ref: ZoneRef) =>
  `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/automation`;

/** Under the zone's key (features/zones), so whatever refreshes a zone refreshes its automation. */
export const automationKey = (ref: ZoneRef) =>
  [
    'customers',
    ref.customerId,
    'sites',
    ref.siteId,
    'buildings',
    ref.buildingId,
    'zones',
    ref.zoneId,
    'automation',
  ] as const;
