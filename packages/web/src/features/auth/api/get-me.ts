import type { User } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { showUserLanguage } from '../../../lib/i18n/index.ts';

export const ME_QUERY_KEY = ['users', 'me'] as const;

/**
 * The signed-in user, with its language on screen before any signed-in screen draws (issue 30): the
 * route guard and the sign-in wait for it.
 */
export async function getMe(): Promise<User> {
  const user = await api.get<User>('/users/me');
  await showUserLanguage(user.language);
  return user;
}

/**
 * The signed-in user: fetched once, then kept until logout or a profile update replaces it. Retried
 * as every query is (twice, on a network or server failure, never on a refusal): without it, one
 * dropped request or a 502 while an instance restarts sent a signed-in user to the sign-in page.
 */
export const meQueryOptions = () =>
  queryOptions({ queryKey: ME_QUERY_KEY, queryFn: getMe, staleTime: Infinity });

export const useMe = () => useQuery(meQueryOptions());
