import type { AwayMode } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export const awayPath = (ref: ZoneRef) =>
  `/customers/${ref.customerId}/sites/${ref.siteId}/buildings/${ref.buildingId}/zones/${ref.zoneId}/away_mode`;

/** Under the zone's key: the automation live message (set, switched off, closed) refreshes it. */
export const awayModeKey = (ref: ZoneRef) =>
  [
    'customers',
    ref.customerId,
    'sites',
    ref.siteId,
    'buildings',
    ref.buildingId,
    'zones',
    ref.zoneId,
    'away_mode',
  ] as const;

export const awayModeQueryOptions = (ref: ZoneRef) =>
  queryOptions({ queryKey: awayModeKey(ref), queryFn: () => api.get<AwayMode>(`${awayPath(ref)}/info`) });

/** A zone's away mode (issue 33, docs/automation.md "Away mode"). */
export const useAwayMode = (ref: ZoneRef) => useQuery(awayModeQueryOptions(ref));
