import type { ZoneSubscription } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const zoneSubscriptionPath = (z: ZoneRef) =>
  `/customers/${z.customerId}/sites/${z.siteId}/buildings/${z.buildingId}/zones/${z.zoneId}/subscription`;

export const getZoneSubscription = (zone: ZoneRef) =>
  api.get<ZoneSubscription>(`${zoneSubscriptionPath(zone)}/info`);

export const zoneSubscriptionQueryOptions = (zone: ZoneRef) =>
  queryOptions({
    queryKey: [...billingKey, 'zones', zone.zoneId, 'subscription'],
    queryFn: () => getZoneSubscription(zone),
  });

/** `enabled: false` for who may not read billing (a plumber, docs/permissions.md). */
export const useZoneSubscription = (zone: ZoneRef, options: { enabled?: boolean } = {}) =>
  useQuery({ ...zoneSubscriptionQueryOptions(zone), enabled: options.enabled ?? true });
