import type { Alert, AlertAnswerValue } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

/** "Was this you?" (issue 33): the caller's answer on a leak or abnormal-use alert; a new one replaces it. */
export function useAnswerAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, answer }: { alertId: string; answer: AlertAnswerValue }) =>
      api.post<Alert>(`/alerts/${alertId}/answer`, { answer }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
