import type { WebhookDeliveriesPage } from '@flowbox/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

const PAGE = 25;

export const listWebhookDeliveries = (customerId: string, webhookId: string, cursor?: string) =>
  api.get<WebhookDeliveriesPage>(`/customers/${customerId}/webhooks/${webhookId}/deliveries`, {
    limit: PAGE,
    cursor,
  });

/** Newest first, a page at a time; refreshed every 5 s while shown, as retries come due. */
export const webhookDeliveriesQueryOptions = (customerId: string, webhookId: string) =>
  infiniteQueryOptions({
    queryKey: [...webhooksKey(customerId), 'deliveries', webhookId],
    queryFn: ({ pageParam }) => listWebhookDeliveries(customerId, webhookId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 5000,
  });

export const useWebhookDeliveries = (customerId: string, webhookId: string) =>
  useInfiniteQuery(webhookDeliveriesQueryOptions(customerId, webhookId));
