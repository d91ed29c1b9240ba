import type { FirmwareUpdateState, RolloutDevicesPageSchema } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { rolloutKey } from './get-rollout.ts';

export type RolloutDevicesPage = z.infer<typeof RolloutDevicesPageSchema>;
export type RolloutDevice = RolloutDevicesPage['items'][number];
export type RolloutDeviceFilters = { state?: FirmwareUpdateState; wave?: number };

/**
 * A rollout's devices, a page at a time, filtered by state or wave. The pages loaded are read
 * again on each pushed change of the rollout (useRolloutLive), and every `refetchMs` while the
 * live stream is down (rolloutRefetchMs), so states and progress move.
 */
export const rolloutDevicesQueryOptions = (
  rolloutId: string,
  filters: RolloutDeviceFilters,
  refetchMs: number | false,
) =>
  infiniteQueryOptions({
    queryKey: [...rolloutKey(rolloutId), 'devices', filters],
    queryFn: ({ pageParam }) =>
      api.get<RolloutDevicesPage>(`/firmware/rollouts/${rolloutId}/devices`, {
        ...filters,
        cursor: pageParam,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: refetchMs,
  });

export const useRolloutDevices = (
  rolloutId: string,
  filters: RolloutDeviceFilters,
  refetchMs: number | false,
) => useInfiniteQuery(rolloutDevicesQueryOptions(rolloutId, filters, refetchMs));
