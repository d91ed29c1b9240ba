import type { RolloutsPageSchema, RolloutState } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';

export type RolloutsPage = z.infer<typeof RolloutsPageSchema>;

/** Newest first, older pages on demand; the caller's scope decides which rollouts it sees. */
export const rolloutsQueryOptions = (state: RolloutState | undefined) =>
  infiniteQueryOptions({
    queryKey: [...FIRMWARE_KEY, 'rollouts', 'list', state ?? 'all'],
    queryFn: ({ pageParam }) => api.get<RolloutsPage>('/firmware/rollouts', { state, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });

export const useRollouts = (state: RolloutState | undefined) => useInfiniteQuery(rolloutsQueryOptions(state));
