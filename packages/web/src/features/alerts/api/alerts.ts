import type {
  Alert,
  AlertCategory,
  AlertCategorySetting,
  AlertCategorySettingUpdate,
  AlertCount,
  AlertsPage,
  AlertsQuery,
  AlertTransition,
} from '@flowbox/shared';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Every alert query sits under this key: a live alert message refreshes them all. */
export const ALERTS_KEY = ['alerts'] as const;

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

export const alertCountQueryOptions = () =>
  queryOptions({ queryKey: [...ALERTS_KEY, 'count'], queryFn: () => api.get<AlertCount>('/alerts/count') });

export const useAlertCount = () => useQuery(alertCountQueryOptions());

/** Silence, unsilence or resolve (spec §4); the list and the count follow (live, and here at once). */
export function useAlertTransition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, transition }: { alert: Alert; transition: AlertTransition }) =>
      api.post<Alert>(`/alerts/${alert.id}/${transition}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}

export const alertSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'settings'],
    queryFn: () => api.get<{ items: AlertCategorySetting[] }>('/alerts/settings/list'),
  });

export const useAlertSettings = () => useQuery(alertSettingsQueryOptions());

export function useUpdateAlertSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ category, input }: { category: AlertCategory; input: AlertCategorySettingUpdate }) =>
      api.put<AlertCategorySetting>(`/alerts/settings/${category}/update`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...ALERTS_KEY, 'settings'] }),
  });
}
