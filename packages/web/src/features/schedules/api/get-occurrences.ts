import type { Occurrences } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesKey, schedulesPath } from './schedule-path.ts';

/** How often the next closings are asked again: windows start and end by themselves. */
const REFRESH_MS = 60_000;

export const getOccurrences = (ref: ZoneRef, limit: number) =>
  api.get<Occurrences>(`${schedulesPath(ref)}/occurrences`, { limit });

export const occurrencesQueryOptions = (ref: ZoneRef, limit: number) =>
  queryOptions({
    queryKey: [...schedulesKey(ref), 'occurrences', limit],
    queryFn: () => getOccurrences(ref, limit),
    refetchInterval: REFRESH_MS,
  });

export const useOccurrences = (ref: ZoneRef, limit = 5) => useQuery(occurrencesQueryOptions(ref, limit));
