import type { LiveMessage } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLiveMessages } from '../../../lib/live.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesKey } from '../api/schedule-path.ts';

const SCHEDULE_MESSAGES = ['schedule'] as const;

/**
 * Keeps a zone's schedules and next closings current (docs/schedules.md "Live updates"): a
 * schedule created, edited or deleted elsewhere, or a window the job closed or opened, reads them
 * again at once; so does a reconnection, since what changed meanwhile was never pushed.
 */
export function useSchedulesLive(zoneRef: ZoneRef): void {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: schedulesKey(zoneRef) }),
    [queryClient, zoneRef],
  );
  const apply = useCallback(
    (message: Extract<LiveMessage, { type: 'schedule' }>) => {
      if (message.zone_id === zoneRef.zoneId) refresh();
    },
    [refresh, zoneRef.zoneId],
  );
  useLiveMessages(SCHEDULE_MESSAGES, apply, refresh);
}
