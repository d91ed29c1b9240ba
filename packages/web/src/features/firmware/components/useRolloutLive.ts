import type { LiveMessage } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useLiveMessages, useLiveReconnected, useLiveStatus, type LiveStatus } from '../../../lib/live.ts';
import { rolloutKey } from '../api/get-rollout.ts';
import { coalesce, concernsRollout, ROLLOUT_COALESCE_MS } from '../rollout-live.ts';

const FIRMWARE_MESSAGES = ['firmware_rollout', 'firmware_update'] as const;

/**
 * Keeps an open rollout page current (docs/firmware.md "Rollout page"): each pushed change of the
 * rollout or of one of its devices reads the rollout, its devices and its history again (a burst
 * at most twice a second), and so does each (re)opening of the stream, since what changed
 * meanwhile was never pushed. Answers the stream's status, for the slow fallback refresh.
 */
export function useRolloutLive(rolloutId: string): LiveStatus {
  const queryClient = useQueryClient();
  const refresh = useMemo(
    () =>
      coalesce(
        () => void queryClient.invalidateQueries({ queryKey: rolloutKey(rolloutId) }),
        ROLLOUT_COALESCE_MS,
      ),
    [queryClient, rolloutId],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  const apply = useCallback(
    (message: Extract<LiveMessage, { type: (typeof FIRMWARE_MESSAGES)[number] }>) => {
      if (concernsRollout(message, rolloutId)) refresh.trigger();
    },
    [refresh, rolloutId],
  );
  useLiveMessages(FIRMWARE_MESSAGES, apply);
  useLiveReconnected(refresh.trigger);
  return useLiveStatus();
}
