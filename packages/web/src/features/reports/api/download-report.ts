import type { Report, ReportFormat } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import { scopePath, type ReportsScope } from './reports-scope.ts';

/** A report's file, fetched with the Bearer (a plain link could not send it), then saved. */
export async function downloadReport(
  scope: ReportsScope,
  report: Report,
  format: ReportFormat,
): Promise<void> {
  const blob = await api.blob(`${scopePath(scope)}/reports/${report.id}/report.${format}`);
  saveBlob(blob, `report-${report.period_from}_${report.period_to}.${format}`);
}

export const useDownloadReport = (scope: ReportsScope) =>
  useMutation({
    mutationFn: ({ report, format }: { report: Report; format: ReportFormat }) =>
      downloadReport(scope, report, format),
  });
