import type { Schedule, ScheduleInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesPath } from './schedule-path.ts';

/** The whole schedule is sent again: its rules hold between fields (docs/schedules.md). */
export const updateSchedule = (ref: ZoneRef, id: string, input: ScheduleInput) =>
  api.put<Schedule>(`${schedulesPath(ref)}/${id}/update`, input);

export function useUpdateSchedule(ref: ZoneRef, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput) => updateSchedule(ref, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
