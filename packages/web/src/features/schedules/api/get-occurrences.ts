import type { Occurrences } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesKey, schedulesPath } from './schedule-path.ts';

export const getOccurrences = (ref: ZoneRef, limit: number) =>
  api.get<Occurrences>(`${schedulesPath(ref)}/occurrences`, { limit });

export const occurrencesQueryOptions = (ref: ZoneRef, limit: number) =>
  queryOptions({
    queryKey: [...schedulesKey(ref), 'occurrences', limit],
    // No polling: the job's closings and openings, and every change, come as live messages.
    queryFn: () => getOccurrences(ref, limit),
  });

export const useOccurrences = (ref: ZoneRef, limit = 5) => useQuery(occurrencesQueryOptions(ref, limit));
