import type { ZonePriceTiers } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, zonePath, type ZoneRef } from './get-zone.ts';

/** The tiers that bill the zone now, with this billing period's volume so far (null: not subscribed). */
export const priceTiersQueryOptions = (ref: ZoneRef) =>
  queryOptions({
    queryKey: [...zoneKey(ref), 'price_tiers'],
    queryFn: () => api.get<ZonePriceTiers>(`${zonePath(ref)}/consumption/price_tiers`),
  });

export const usePriceTiers = (ref: ZoneRef) => useQuery(priceTiersQueryOptions(ref));
