import type { RolloutTimeline } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { rolloutKey } from './get-rollout.ts';

/**
 * A rollout's states over its whole life (docs/firmware.md "Rollout page"). Under the rollout's
 * key, so each pushed change of it reads it again with the rest (useRolloutLive).
 */
export const rolloutTimelineQueryOptions = (rolloutId: string, refetchMs: number | false) =>
  queryOptions({
    queryKey: [...rolloutKey(rolloutId), 'timeline'],
    queryFn: () => api.get<RolloutTimeline>(`/firmware/rollouts/${rolloutId}/timeline`),
    staleTime: 0,
    refetchInterval: refetchMs,
  });

export const useRolloutTimeline = (rolloutId: string, refetchMs: number | false) =>
  useQuery(rolloutTimelineQueryOptions(rolloutId, refetchMs));
