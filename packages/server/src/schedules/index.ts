/** What the rest of the server uses of the schedules domain (docs/architecture.md). */
export { ScheduleRunner, scheduleJob } from './schedule-runner.ts';
