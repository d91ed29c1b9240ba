import type { Site } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type SiteList = { items: Site[]; total: number };

export const sitesKey = (customerId: string) => ['customers', customerId, 'sites'] as const;

/** A site manager gets only its own sites; everyone else every site of the customer. */
export const listSites = (customerId: string, search?: string) =>
  api.get<SiteList>(`/customers/${customerId}/sites/list`, { search, limit: 500 });

export const sitesQueryOptions = (customerId: string, search?: string) =>
  queryOptions({
    queryKey: [...sitesKey(customerId), 'list', search ?? ''],
    queryFn: () => listSites(customerId, search),
  });

export const useSites = (customerId: string, search?: string) =>
  useQuery(sitesQueryOptions(customerId, search));
