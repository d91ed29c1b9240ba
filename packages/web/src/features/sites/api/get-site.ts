import type { Site } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { sitesKey } from './list-sites.ts';

export const getSite = (customerId: string, siteId: string) =>
  api.get<Site>(`/customers/${customerId}/sites/${siteId}/info`);

export const siteQueryOptions = (customerId: string, siteId: string) =>
  queryOptions({
    queryKey: [...sitesKey(customerId), 'info', siteId],
    queryFn: () => getSite(customerId, siteId),
  });

export const useSite = (customerId: string, siteId: string) => useQuery(siteQueryOptions(customerId, siteId));
