import type { InstanceMetrics } from '../http/metrics.ts';
import type { Mailer } from './mailer.ts';

/** Emails of this instance, read from the mailer's counters. */
export function mailMetrics(metrics: InstanceMetrics, mailer: Mailer): void {
  metrics.counterFrom(
    'emails_total',
    'Emails by outcome: queued (for the relay), sent (the relay took it), retried (refused for now, queued again), failed (refused for good or after its last try)',
    ['outcome'],
    () =>
      (['queued', 'sent', 'retried', 'failed'] as const).map((outcome) => ({
        labels: { outcome },
        value: mailer.counters[outcome],
      })),
  );
}
