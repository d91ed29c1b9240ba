import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unsubscribeThisBrowser } from '../../../lib/web-push.ts';
import { PUSH_QUERY_KEY } from './list-push-subscriptions.ts';

/** Turns notifications off for this browser: the server forgets it, and the browser drops its subscription. */
export function useDisablePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribeThisBrowser,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PUSH_QUERY_KEY }),
  });
}
