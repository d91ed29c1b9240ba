import type { Schedule } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesKey, schedulesPath } from './schedule-path.ts';

export const getSchedule = (ref: ZoneRef, id: string) =>
  api.get<Schedule>(`${schedulesPath(ref)}/${id}/info`);

export const scheduleQueryOptions = (ref: ZoneRef, id: string) =>
  queryOptions({ queryKey: [...schedulesKey(ref), 'info', id], queryFn: () => getSchedule(ref, id) });

export const useSchedule = (ref: ZoneRef, id: string) => useQuery(scheduleQueryOptions(ref, id));
