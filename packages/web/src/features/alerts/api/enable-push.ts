import { useMutation, useQueryClient } from '@tanstack/react-query';
import { subscribeThisBrowser } from '../../../lib/web-push.ts';
import { PUSH_QUERY_KEY } from './list-push-subscriptions.ts';

/**
 * Turns notifications on for this browser. The caller passes the browser's permission request,
 * made in the click handler itself: Safari asks only within a tap.
 */
export function useEnablePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (permission: Promise<NotificationPermission>) => subscribeThisBrowser(permission),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PUSH_QUERY_KEY }),
  });
}
