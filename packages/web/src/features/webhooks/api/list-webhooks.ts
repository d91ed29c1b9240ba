import type { Webhook } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Every webhook query of a customer starts with this key: a change refreshes them all. */
export const webhooksKey = (customerId: string) => ['webhooks', customerId] as const;

export const listWebhooks = (customerId: string) =>
  api.get<{ items: Webhook[] }>(`/customers/${customerId}/webhooks/list`);

export const webhooksQueryOptions = (customerId: string) =>
  queryOptions({ queryKey: [...webhooksKey(customerId), 'list'], queryFn: () => listWebhooks(customerId) });

export const useWebhooks = (customerId: string) => useQuery(webhooksQueryOptions(customerId));
