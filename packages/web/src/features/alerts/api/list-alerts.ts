import type { AlertsPage, AlertsQuery } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

/** The filters of a list; cursor and page size are the query's own business. */
export type AlertFilters = Omit<AlertsQuery, 'cursor' | 'limit'>;

const PAGE_SIZE = 30;

export const alertsQueryOptions = (filters: AlertFilters, pageSize = PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: [...ALERTS_KEY, 'list', filters, pageSize],
    queryFn: ({ pageParam }) =>
      api.get<AlertsPage>('/alerts/list', { ...filters, cursor: pageParam, limit: pageSize }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });

export const useAlerts = (filters: AlertFilters, pageSize?: number) =>
  useInfiniteQuery(alertsQueryOptions(filters, pageSize));
