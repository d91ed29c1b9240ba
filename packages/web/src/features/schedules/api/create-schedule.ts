import type { Schedule, ScheduleInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesPath } from './schedule-path.ts';

export const createSchedule = (ref: ZoneRef, input: ScheduleInput) =>
  api.post<Schedule>(`${schedulesPath(ref)}/create`, input);

export function useCreateSchedule(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => createSchedule(ref, input),
    // The schedules, the next closings and the activity logs change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
