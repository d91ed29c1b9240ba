import type { ReportRecipient } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { reportsKey, scopePath, type ReportsScope } from './reports-scope.ts';

/** The users a schedule of the scope may name: the customer's managers who read it. */
export const listReportRecipients = (scope: ReportsScope) =>
  api.get<{ items: ReportRecipient[] }>(`${scopePath(scope)}/report_schedules/recipients`);

export const reportRecipientsQueryOptions = (scope: ReportsScope) =>
  queryOptions({
    queryKey: [...reportsKey(scope), 'recipients'],
    queryFn: () => listReportRecipients(scope),
  });

export const useReportRecipients = (scope: ReportsScope) => useQuery(reportRecipientsQueryOptions(scope));
