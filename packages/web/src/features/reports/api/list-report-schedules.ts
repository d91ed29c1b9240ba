import type { ReportSchedule } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

export const listReportSchedules = (scope: ReportsScope) =>
  api.get<{ items: ReportSchedule[]; total: number }>(`${scopePath(scope)}/report_schedules/list`);

export const reportSchedulesQueryOptions = (scope: ReportsScope) =>
  queryOptions({ queryKey: [...reportsKey(scope), 'schedules'], queryFn: () => listReportSchedules(scope) });

export const useReportSchedules = (scope: ReportsScope) => useQuery(reportSchedulesQueryOptions(scope));
