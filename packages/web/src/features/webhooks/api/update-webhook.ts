import type { Webhook, WebhookUpdate } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

export const updateWebhook = (customerId: string, webhookId: string, input: WebhookUpdate) =>
  api.put<Webhook>(`/customers/${customerId}/webhooks/${webhookId}/update`, input);

export function useUpdateWebhook(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: WebhookUpdate }) => updateWebhook(customerId, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(customerId) }),
  });
}
