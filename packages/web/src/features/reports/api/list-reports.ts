import type { Report } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

export const listReports = (scope: ReportsScope) =>
  api.get<{ items: Report[]; total: number }>(`${scopePath(scope)}/reports/list`);

export const reportsQueryOptions = (scope: ReportsScope) =>
  queryOptions({ queryKey: [...reportsKey(scope), 'list'], queryFn: () => listReports(scope) });

export const useReports = (scope: ReportsScope) => useQuery(reportsQueryOptions(scope));
