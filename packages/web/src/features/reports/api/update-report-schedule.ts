import type { ReportSchedule, ReportScheduleInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

/** Every field is sent again (PUT). */
export const updateReportSchedule = (scope: ReportsScope, id: string, input: ReportScheduleInput) =>
  api.put<ReportSchedule>(`${scopePath(scope)}/report_schedules/${id}/update`, input);

export function useUpdateReportSchedule(scope: ReportsScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ReportScheduleInput }) =>
      updateReportSchedule(scope, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(scope) }),
  });
}
