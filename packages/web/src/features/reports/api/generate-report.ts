import type { Report, ReportGenerate } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

/** "Generate now": the server makes the report within the request (a few seconds for a year). */
export const generateReport = (scope: ReportsScope, input: ReportGenerate) =>
  api.post<Report>(`${scopePath(scope)}/reports/generate`, input);

export function useGenerateReport(scope: ReportsScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReportGenerate) => generateReport(scope, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportsKey(scope) }),
  });
}
