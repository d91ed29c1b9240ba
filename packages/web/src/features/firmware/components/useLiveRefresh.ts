import type { LiveMessage } from '@flowbox/shared';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useLiveMessages, useLiveStatus, type LiveStatus, type LiveType } from '../../../lib/live.ts';
import { coalesce, ROLLOUT_COALESCE_MS } from '../rollout-live.ts';

/**
 * Keeps a firmware screen's query current from the live stream (docs/firmware.md): each pushed
 * message of `types` that `concerns` it reads `queryKey` again (a burst at most once per `ms`), and
 * so does each (re)opening of the stream, since what changed meanwhile was never pushed. Answers the
 * stream's status, for the slow fallback refresh (rolloutRefetchMs).
 */
export function useLiveRefresh<K extends LiveType>(
  queryKey: QueryKey,
  types: readonly K[],
  concerns: (message: Extract<LiveMessage, { type: K }>) => boolean,
  ms = ROLLOUT_COALESCE_MS,
): LiveStatus {
  const queryClient = useQueryClient();
  // By its text: a caller's new key array each render must not drop a pending read.
  const keyText = JSON.stringify(queryKey);
  const refresh = useMemo(
    () =>
      coalesce(() => void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) as QueryKey }), ms),
    [queryClient, keyText, ms],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  const latest = useRef(concerns);
  useEffect(() => {
    latest.current = concerns;
  }, [concerns]);
  useLiveMessages(
    types,
    useCallback(
      (message: Extract<LiveMessage, { type: K }>) => {
        if (latest.current(message)) refresh.trigger();
      },
      [refresh],
    ),
    refresh.trigger,
  );
  return useLiveStatus();
}
