// A zone's kinds (spec §3): below both the HTTP contract (api/) and the device protocol (protocol/).

/**
 * What a zone is used for: it tells the rules which consumption to expect (automatic closing,
 * abnormal-consumption alerts) and lets reports compare like with like. See docs/hierarchy.md.
 */
export const ZONE_PROFILES = [
  'housing',
  'office',
  'sanitary',
  'showers',
  'kitchen',
  'laundry',
  'hospitality',
  'healthcare',
  'education',
  'sports',
  'pool',
  'irrigation',
  'industrial_process',
  'cooling',
  'technical_room',
  'common_areas',
  'other',
] as const;
export type ZoneProfile = (typeof ZONE_PROFILES)[number];

/** spec §3 and §9. */
export const SERVICE_LEVELS = ['basic', 'premium'] as const;
export type ServiceLevel = (typeof SERVICE_LEVELS)[number];
