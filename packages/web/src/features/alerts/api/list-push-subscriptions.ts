import type { PushSubscriptionInfo } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Every query of this browser's and the user's push subscriptions: a change refreshes them all. */
export const PUSH_QUERY_KEY = ['push'] as const;

/** The user's browsers that receive critical alerts (docs/push.md), without their keys. */
export const pushSubscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: [...PUSH_QUERY_KEY, 'subscriptions'],
    queryFn: () => api.get<{ items: PushSubscriptionInfo[] }>('/push/subscriptions'),
  });

export const usePushSubscriptions = () => useQuery(pushSubscriptionsQueryOptions());
