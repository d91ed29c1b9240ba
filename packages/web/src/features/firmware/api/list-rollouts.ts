import type { RolloutsPageSchema, RolloutState } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { isRolloutOver } from './get-rollout.ts';
import { FIRMWARE_KEY, FIRMWARE_POLL_MS } from './keys.ts';

export type RolloutsPage = z.infer<typeof RolloutsPageSchema>;

/**
 * Newest first, older pages on demand; the caller's scope decides which rollouts it sees. Read
 * again at the polling pace while one of those shown is not over, so their bars move.
 */
export const rolloutsQueryOptions = (state: RolloutState | undefined) =>
  infiniteQueryOptions({
    queryKey: [...FIRMWARE_KEY, 'rollouts', 'list', state ?? 'all'],
    queryFn: ({ pageParam }) => api.get<RolloutsPage>('/firmware/rollouts', { state, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((rollout) => !isRolloutOver(rollout)))
        ? FIRMWARE_POLL_MS
        : false,
  });

export const useRollouts = (state: RolloutState | undefined) => useInfiniteQuery(rolloutsQueryOptions(state));
