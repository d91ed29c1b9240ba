import type { ZoneSummary } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type ZoneDirectory = { items: ZoneSummary[]; total: number };

/** The zones whose alerts the user sees in a customer (a site manager: its own sites'), for pickers. */
export const followedZonesQueryOptions = (customerId: string) =>
  queryOptions({
    // The customer's zone directory key: creating or deleting a zone anywhere in it refreshes the pickers.
    queryKey: ['customers', customerId, 'zones', 'directory'],
    queryFn: () => api.get<ZoneDirectory>(`/customers/${customerId}/zones/list`, { limit: 500 }),
  });

export const useFollowedZones = (customerId: string | null) =>
  useQuery({ ...followedZonesQueryOptions(customerId ?? ''), enabled: customerId !== null });
