import type { RolloutsPageSchema, RolloutState } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import type { LiveStatus } from '../../../lib/live.ts';
import { rolloutRefetchMs } from '../rollout-live.ts';
import { isRolloutOver } from './get-rollout.ts';
import { FIRMWARE_KEY } from './keys.ts';

export type RolloutsPage = z.infer<typeof RolloutsPageSchema>;

/** Every list of rollouts, whatever its filter: what a pushed step of a rollout reads again. */
export const rolloutsListKey = [...FIRMWARE_KEY, 'rollouts', 'list'] as const;

/**
 * Newest first, older pages on demand; the caller's scope decides which rollouts it sees. Read
 * again on the pushed steps of rollouts (RolloutsPage); by itself only while one of those shown
 * is not over and the live stream is down, at the rollout page's slow pace.
 */
export const rolloutsQueryOptions = (state: RolloutState | undefined, live: LiveStatus = 'connected') =>
  infiniteQueryOptions({
    queryKey: [...rolloutsListKey, state ?? 'all'],
    queryFn: ({ pageParam }) => api.get<RolloutsPage>('/firmware/rollouts', { state, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      rolloutRefetchMs(
        !query.state.data?.pages.some((page) => page.items.some((rollout) => !isRolloutOver(rollout))),
        live,
      ),
  });

export const useRollouts = (state: RolloutState | undefined, live: LiveStatus) =>
  useInfiniteQuery(rolloutsQueryOptions(state, live));
