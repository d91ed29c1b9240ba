import type { Job } from '../jobs/index.ts';
import { REPORT_JOB, type ReportsService } from './reports.service.ts';

/**
 * The scheduled reports (docs/reports.md "When"): every minute, the schedules whose period has
 * ended are claimed, their reports made and stored, and their recipients' emails queued.
 */
export function scheduledReportsJob(
  reports: Pick<ReportsService, 'runDue'>,
  everyMs: number = REPORT_JOB.everyMs,
): Job {
  return { name: 'scheduled_reports', everyMs, jitterMs: 10_000, pass: () => reports.runDue() };
}
