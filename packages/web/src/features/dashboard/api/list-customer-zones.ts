import type { ZoneSummary } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type ZoneDirectory = { items: ZoneSummary[]; total: number };

/** Every zone the user may see in its customer: a site manager gets its own sites' only. */
export const listCustomerZones = (customerId: string) =>
  api.get<ZoneDirectory>(`/customers/${customerId}/zones/list`, { limit: 500 });

export const customerZonesQueryOptions = (customerId: string) =>
  queryOptions({
    // Under the customer's key: creating or deleting a zone anywhere in it refreshes the dashboard.
    queryKey: ['customers', customerId, 'zones', 'directory'],
    queryFn: () => listCustomerZones(customerId),
  });

export const useCustomerZones = (customerId: string) => useQuery(customerZonesQueryOptions(customerId));
