import type { Alert, AlertTransition } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

/** Silence, unsilence or resolve (spec §4); the list and the count follow (live, and here at once). */
export function useAlertTransition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alert, transition }: { alert: Alert; transition: AlertTransition }) =>
      api.post<Alert>(`/alerts/${alert.id}/${transition}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
