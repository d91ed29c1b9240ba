import type { InstanceMetrics } from '../http/metrics.ts';
import type { WebhookDelivery } from './webhook-delivery.service.ts';

/** Webhook tries of this instance by outcome, and the webhooks it disabled (docs/webhooks.md). */
export function webhookMetrics(metrics: InstanceMetrics, delivery: WebhookDelivery): void {
  metrics.counterFrom(
    'webhook_deliveries_total',
    'Webhook delivery tries by outcome: delivered (2xx), retried (to be tried again), failed (for good), disabled (a webhook disabled after repeated failures)',
    ['outcome'],
    () =>
      (['delivered', 'retried', 'failed', 'disabled'] as const).map((outcome) => ({
        labels: { outcome },
        value: delivery.counters[outcome],
      })),
  );
}
