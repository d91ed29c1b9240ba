import type { Rollout } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { LiveStatus } from '../../../lib/live.ts';
import { rolloutRefetchMs } from '../rollout-live.ts';
import { FIRMWARE_KEY } from './keys.ts';

export const rolloutKey = (rolloutId: string) => [...FIRMWARE_KEY, 'rollout', rolloutId] as const;

export const getRollout = (rolloutId: string) => api.get<Rollout>(`/firmware/rollouts/${rolloutId}`);

/** A rollout is followed until it is over: running and paused ones still have devices on their way. */
export const isRolloutOver = (rollout: Pick<Rollout, 'state'>) =>
  rollout.state === 'completed' || rollout.state === 'cancelled';

/**
 * A rollout, read again on each pushed change of it (useRolloutLive); `live` is the live stream's
 * status, which decides the fallback refresh (rolloutRefetchMs).
 */
export const rolloutQueryOptions = (rolloutId: string, live: LiveStatus = 'connected') =>
  queryOptions({
    queryKey: [...rolloutKey(rolloutId), 'info'],
    queryFn: () => getRollout(rolloutId),
    staleTime: 0,
    refetchInterval: (query) => {
      const rollout = query.state.data;
      return rolloutRefetchMs(rollout !== undefined && isRolloutOver(rollout), live);
    },
  });

export const useRollout = (rolloutId: string, live: LiveStatus) =>
  useQuery(rolloutQueryOptions(rolloutId, live));
