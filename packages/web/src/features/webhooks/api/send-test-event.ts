import type { WebhookDelivery } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

/** A `webhook.test` event for this webhook alone; its delivery log tells how it went. */
export const sendTestEvent = (customerId: string, webhookId: string) =>
  api.post<WebhookDelivery>(`/customers/${customerId}/webhooks/${webhookId}/test`);

export function useSendTestEvent(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => sendTestEvent(customerId, webhookId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(customerId) }),
  });
}
