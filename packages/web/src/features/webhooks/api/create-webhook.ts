import type { WebhookCreate, WebhookWithSecret } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

/** The answer holds the webhook's secret, shown this once. */
export const createWebhook = (customerId: string, input: WebhookCreate) =>
  api.post<WebhookWithSecret>(`/customers/${customerId}/webhooks/create`, input);

export function useCreateWebhook(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookCreate) => createWebhook(customerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(customerId) }),
  });
}
