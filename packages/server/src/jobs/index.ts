export {
  JobRunner,
  beatDelay,
  type Job,
  type JobCounters,
  type JobLog,
  type JobRunnerOptions,
  type RunningJob,
} from './jobs.ts';
export { jobMetrics } from './metrics.ts';
