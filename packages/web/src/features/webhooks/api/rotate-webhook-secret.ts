import type { WebhookWithSecret } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { webhooksKey } from './list-webhooks.ts';

/** A new secret, answered this once; the old one signs nothing from then on. */
export const rotateWebhookSecret = (customerId: string, webhookId: string) =>
  api.post<WebhookWithSecret>(`/customers/${customerId}/webhooks/${webhookId}/rotate_secret`);

export function useRotateWebhookSecret(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => rotateWebhookSecret(customerId, webhookId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(customerId) }),
  });
}
