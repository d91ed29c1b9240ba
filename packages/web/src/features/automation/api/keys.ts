/** Where a zone lives; every automatic-closing call is made under it. */
export type AutomationZoneRef = { customerId: string; siteId: string; buildingId: string; zoneId: string };

export const automationPath = (ref: AutomationZoneRef) =>
  `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/automation`;

/** Under the zone's key (features/zones), so whatever refreshes a zone refreshes its automation. */
export const automationKey = (ref: AutomationZoneRef) =>
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
