import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

/** spec §5: the schedule's name, typed by the user, confirms the deletion (its reports go with it). */
export const deleteReportSchedule = (scope: ReportsScope, id: string, confirmName: string) =>
  api.delete<void>(`${scopePath(scope)}/report_schedules/${id}/delete`, { confirm_name: confirmName });

export function useDeleteReportSchedule(scope: ReportsScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName: string }) =>
      deleteReportSchedule(scope, id, confirmName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(scope) }),
  });
}
