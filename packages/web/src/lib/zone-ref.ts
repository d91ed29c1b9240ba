/**
 * Where a zone lives in the hierarchy: every call about a zone (its settings, water points,
 * flowboxes, automatic closing, schedules, subscription, claim codes) is made under these ids.
 */
export type ZoneRef = { customerId: string; siteId: string; buildingId: string; zoneId: string };
