import type { ReportSchedule, ReportScheduleInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

export const createReportSchedule = (scope: ReportsScope, input: ReportScheduleInput) =>
  api.post<ReportSchedule>(`${scopePath(scope)}/report_schedules/create`, input);

export function useCreateReportSchedule(scope: ReportsScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportScheduleInput) => createReportSchedule(scope, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(scope) }),
  });
}
