import type { Schedule } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesKey, schedulesPath } from './schedule-path.ts';

export const listSchedules = (ref: ZoneRef) =>
  api.get<{ items: Schedule[]; total: number }>(`${schedulesPath(ref)}/list`);

export const schedulesQueryOptions = (ref: ZoneRef) =>
  queryOptions({ queryKey: [...schedulesKey(ref), 'list'], queryFn: () => listSchedules(ref) });

export const useSchedules = (ref: ZoneRef) => useQuery(schedulesQueryOptions(ref));
