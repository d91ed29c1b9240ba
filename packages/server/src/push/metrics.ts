import type { InstanceMetrics } from '../http/metrics.ts';
import type { PushDelivery } from './push-delivery.service.ts';

/** "Reading → notification sent" up to a minute; the goal is under 1 s (docs/push.md). */
const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 2, 5, 10, 30, 60];

/** Web Push of this instance: messages by outcome, and how long after the alert each was taken. */
export function pushMetrics(metrics: InstanceMetrics, delivery: PushDelivery): void {
  metrics.counterFrom(
    'push_messages_total',
    'Web Push messages by outcome: queued (one per browser), sent (the push service took it), retried, failed (refused for good or after its last try), gone (the subscription expired: 404 or 410, deleted)',
    ['outcome'],
    () =>
      (['queued', 'sent', 'retried', 'failed', 'gone'] as const).map((outcome) => ({
        labels: { outcome },
        value: delivery.counters[outcome],
      })),
  );
  const latency = metrics.histogram(
    'alert_push_latency_seconds',
    "Alerts' Web Push messages: from the alert's reading (its opening) until the push service took the message",
    [],
    LATENCY_BUCKETS,
  );
  delivery.onSent((seconds) => latency.observe(seconds));
}
