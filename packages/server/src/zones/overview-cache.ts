import type { Zone } from '@flowbox/shared';
import { forgetOnNotify, HeardCache, type HeardCacheLimits, type Notifications } from '../live/index.ts';

/** The channel drizzle/0018's triggers notify: a zone's, building's or site's id. */
export const ZONES_CHANNEL = 'flowbox_zones';

export const ZONE_OVERVIEW_CACHE: HeardCacheLimits = {
  /** A few hundred bytes each. */
  max: 10_000,
  ttlMs: 10_000,
};

/**
 * The zone overviews this instance answered (`…/zones/{id}/info`, the zone page and its refreshes:
 * among the most frequent reads), kept while it hears every change to them: to the zone, its water
 * points, its building or its site (drizzle/0018). Each is tagged with its building and site, so
 * one notification forgets all it may have changed. Without notifications nothing is kept.
 */
export function zoneOverviewCache(
  notifications: Notifications,
  now: () => number = Date.now,
  limits = ZONE_OVERVIEW_CACHE,
): HeardCache<Zone> {
  const cache = new HeardCache<Zone>(now, limits);
  forgetOnNotify(notifications, ZONES_CHANNEL, cache);
  return cache;
}

/** Whether a remembered overview is the one at that place in the hierarchy. */
export function isAt(
  zone: Zone,
  path: { customerId: string; siteId: string; buildingId: string; zoneId: string },
): boolean {
  return (
    zone.id === path.zoneId &&
    zone.building_id === path.buildingId &&
    zone.site_id === path.siteId &&
    zone.customer_id === path.customerId
  );
}

/** Shared by the requests that read it: nobody may change it. */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}
