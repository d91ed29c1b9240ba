import { useMutation, useQueryClient } from '@tanstack/react-query';
import { removePushSubscription } from '../../../lib/web-push.ts';
import { PUSH_QUERY_KEY } from './list-push-subscriptions.ts';

/** Stops notifications on another of the user's browsers (a lost phone, an old computer). */
export function useRemovePushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: string) => removePushSubscription(endpoint),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PUSH_QUERY_KEY }),
  });
}
