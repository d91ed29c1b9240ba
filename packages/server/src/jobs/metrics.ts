import type { InstanceMetrics, Sample } from '../http/metrics.ts';
import type { JobCounters, JobRunner } from './jobs.ts';

/** The periodic jobs' Prometheus metrics, read from the counters the runner keeps, by job name. */
export function jobMetrics(metrics: InstanceMetrics, runner: JobRunner): void {
  const byJob = (value: (counters: JobCounters) => number) => (): Sample<'job'>[] =>
    Object.entries(runner.counters()).map(([job, counters]) => ({ labels: { job }, value: value(counters) }));
  metrics.counterFrom(
    'job_passes_total',
    'Passes of each periodic job',
    ['job'],
    byJob((c) => c.passes),
  );
  metrics.counterFrom(
    'job_failures_total',
    'Passes of each periodic job that failed',
    ['job'],
    byJob((c) => c.failures),
  );
  metrics.counterFrom(
    'job_skipped_beats_total',
    "Beats skipped because the job's previous pass still ran",
    ['job'],
    byJob((c) => c.skipped_beats),
  );
  metrics.counterFrom(
    'job_pass_seconds_total',
    "Time each job's passes took, added up (divide by job_passes_total for the mean)",
    ['job'],
    byJob((c) => c.total_pass_ms / 1000),
  );
  metrics.gaugeFrom(
    'job_last_pass_seconds',
    "How long each job's latest pass took",
    ['job'],
    byJob((c) => c.last_pass_ms / 1000),
  );
  metrics.gaugeFrom(
    'job_max_pass_seconds',
    'The longest pass of each job since the instance started',
    ['job'],
    byJob((c) => c.max_pass_ms / 1000),
  );
}
