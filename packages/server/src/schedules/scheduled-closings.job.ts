import type { Job } from '../jobs/index.ts';
import type { ScheduleRunner } from './schedule-runner.ts';

/** How often each instance runs a pass: a window closes at most this late. */
export const SCHEDULE_PASS_MS = 15_000;

/** The scheduled closings, a pass at start and then every `everyMs`. */
export function scheduledClosingsJob(runner: ScheduleRunner, everyMs = SCHEDULE_PASS_MS): Job {
  return { name: 'scheduled_closings', everyMs, passAtStart: true, pass: () => runner.runDue() };
}
