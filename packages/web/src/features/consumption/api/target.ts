import type { ConsumptionScope } from '@flowbox/shared';

/**
 * What a graph covers, as its place in the hierarchy: a customer, or a site, building or zone
 * under it. The deepest id given names the scope (spec §2 overview routes).
 */
export type ConsumptionTarget = {
  customerId: string;
  siteId?: string;
  buildingId?: string;
  zoneId?: string;
};

export function scopeOf(target: ConsumptionTarget): ConsumptionScope {
  if (target.zoneId) return 'zone';
  if (target.buildingId) return 'building';
  if (target.siteId) return 'site';
  return 'customer';
}

/** The API path of the scope (`/customers/…/zones/…`), under which `/consumption` calls live. */
export function targetPath({ customerId, siteId, buildingId, zoneId }: ConsumptionTarget): string {
  let path = `/customers/${customerId}`;
  if (!siteId) return path;
  path += `/sites/${siteId}`;
  if (!buildingId) return path;
  path += `/buildings/${buildingId}`;
  return zoneId ? `${path}/zones/${zoneId}` : path;
}

/** The ids a pushed `consumption` message names: the zone and every level above it. */
export type ConsumptionOrigin = {
  customer_id: string;
  site_id: string;
  building_id: string;
  zone_id: string;
};

/** Whether new readings in a zone change the figures of a target (the zone, or a scope holding it). */
export function targetCovers(target: ConsumptionTarget, origin: ConsumptionOrigin): boolean {
  return (
    target.customerId === origin.customer_id &&
    (!target.siteId || target.siteId === origin.site_id) &&
    (!target.buildingId || target.buildingId === origin.building_id) &&
    (!target.zoneId || target.zoneId === origin.zone_id)
  );
}

/** Query keys start with `['consumption', target]`, so live updates can pick the queries a zone touches. */
export const consumptionKey = (target: ConsumptionTarget) => ['consumption', target] as const;
