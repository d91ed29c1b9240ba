import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * The user opened these alerts (docs/alerts.md "Escalation"): shown to them on the screen, or
 * reached from a notification's link. Their "if not opened" channels then stay quiet.
 */
export function useOpenAlerts() {
  return useMutation({
    mutationFn: (alertIds: string[]) =>
      api.post<{ opened: number }>('/alerts/opened', { alert_ids: alertIds }),
  });
}
