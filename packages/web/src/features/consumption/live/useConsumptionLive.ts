import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useLiveMessages } from '../../../lib/live.ts';
import { consumptionKey, targetCovers, type ConsumptionTarget } from '../api/target.ts';
import { throttle } from './throttle.ts';

const CONSUMPTION = ['consumption'] as const;
/** The server sends at most one message per zone per second; a busy site is still read every 2 s. */
export const LIVE_REFETCH_MS = 2000;

/**
 * While mounted, new readings in a zone the target covers refetch the target's consumption
 * queries (graph, zones compared, device details), at most once per LIVE_REFETCH_MS; so does a
 * reconnection, since what arrived meanwhile was never pushed.
 */
export function useConsumptionLive(target: ConsumptionTarget): void {
  const queryClient = useQueryClient();
  const latestTarget = useRef(target);
  useEffect(() => {
    latestTarget.current = target;
  }, [target]);
  const refetch = useRef<ReturnType<typeof throttle> | null>(null);
  useEffect(() => {
    const throttled = throttle(
      () => void queryClient.invalidateQueries({ queryKey: consumptionKey(latestTarget.current) }),
      LIVE_REFETCH_MS,
    );
    refetch.current = throttled;
    return () => throttled.cancel();
  }, [queryClient]);

  useLiveMessages(
    CONSUMPTION,
    useCallback((message) => {
      if (targetCovers(latestTarget.current, message)) refetch.current?.run();
    }, []),
    useCallback(() => refetch.current?.run(), []),
  );
}
