import type { User } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const ME_QUERY_KEY = ['users', 'me'] as const;

export const getMe = () => api.get<User>('/users/me');

/** The signed-in user: fetched once, then kept until logout or a profile update replaces it. */
export const meQueryOptions = () =>
  queryOptions({ queryKey: ME_QUERY_KEY, queryFn: getMe, staleTime: Infinity, retry: false });

export const useMe = () => useQuery(meQueryOptions());
