import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { schedulesPath } from './schedule-path.ts';

/** spec §5: the schedule's label, typed by the user, confirms the deletion. */
export const deleteSchedule = (ref: ZoneRef, id: string, confirmName: string) =>
  api.delete<void>(`${schedulesPath(ref)}/${id}/delete`, { confirm_name: confirmName });

export function useDeleteSchedule(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName: string }) =>
      deleteSchedule(ref, id, confirmName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
