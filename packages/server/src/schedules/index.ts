/** What the rest of the server uses of the schedules domain (docs/architecture.md). */
export { ScheduleRunner } from './schedule-runner.ts';
