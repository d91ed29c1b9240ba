import type { InstanceMetrics } from '../http/metrics.ts';
import type { Mailer } from './mailer.ts';

/** Emails of this instance, read from the mailer's counters. */
export function mailMetrics(metrics: InstanceMetrics, mailer: Mailer): void {
  metrics.counterFrom(
    'emails_total',
    'Emails by outcome: queued (put in the outbox), sent (through SMTP), failed (SMTP refused or unreachable)',
    ['outcome'],
    () =>
      (['queued', 'sent', 'failed'] as const).map((outcome) => ({
        labels: { outcome },
        value: mailer.counters[outcome],
      })),
  );
}
