import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

export const deleteWebhook = (customerId: string, webhookId: string) =>
  api.delete<void>(`/customers/${customerId}/webhooks/${webhookId}/delete`);

export function useDeleteWebhook(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => deleteWebhook(customerId, webhookId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(customerId) }),
  });
}
