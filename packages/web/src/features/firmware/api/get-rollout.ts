import type { Rollout } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY, FIRMWARE_POLL_MS } from './keys.ts';

export const rolloutKey = (rolloutId: string) => [...FIRMWARE_KEY, 'rollout', rolloutId] as const;

export const getRollout = (rolloutId: string) => api.get<Rollout>(`/firmware/rollouts/${rolloutId}`);

/** A rollout is followed until it is over: running and paused ones still have devices on their way. */
export const isRolloutOver = (rollout: Pick<Rollout, 'state'>) =>
  rollout.state === 'completed' || rollout.state === 'cancelled';

export const rolloutQueryOptions = (rolloutId: string) =>
  queryOptions({
    queryKey: [...rolloutKey(rolloutId), 'info'],
    queryFn: () => getRollout(rolloutId),
    staleTime: 0,
    refetchInterval: (query) => {
      const rollout = query.state.data;
      return rollout && isRolloutOver(rollout) ? false : FIRMWARE_POLL_MS;
    },
  });

export const useRollout = (rolloutId: string) => useQuery(rolloutQueryOptions(rolloutId));
