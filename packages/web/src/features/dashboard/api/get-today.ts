import type { DashboardToday } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const todayKey = ['dashboard', 'today'] as const;

/** Today's statistics over what the signed-in user may see (issue #6). */
export const getToday = () => api.get<DashboardToday>('/dashboard/today');

export const todayQueryOptions = () => queryOptions({ queryKey: todayKey, queryFn: getToday });

export const useToday = () => useQuery(todayQueryOptions());
