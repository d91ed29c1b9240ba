import type { SubscriptionsOverview } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { billingKey } from './list-pricing-plans.ts';

export const getSubscriptionsOverview = () => api.get<SubscriptionsOverview>('/subscriptions/overview');

export const subscriptionsOverviewQueryOptions = () =>
  queryOptions({ queryKey: [...billingKey, 'overview'], queryFn: getSubscriptionsOverview });

export const useSubscriptionsOverview = () => useQuery(subscriptionsOverviewQueryOptions());
