import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLiveMessages } from '../../../lib/live.ts';
import { ALERTS_KEY } from '../api/keys.ts';

const ALERT_MESSAGES = ['alert'] as const;

/**
 * Mounted once in the signed-in layout: an alert opened, repeated, silenced or resolved anywhere
 * refreshes the header count and every alert list on screen; so does each opening of the live
 * stream, the first one too, since an alert raised before it opened was never pushed.
 */
export function AlertsLiveSync() {
  const queryClient = useQueryClient();
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
  }, [queryClient]);
  useLiveMessages(ALERT_MESSAGES, refresh, refresh);
  return null;
}
