import type { Job } from '../jobs/index.ts';
import { WEBHOOK_DELIVERY, type WebhookDelivery } from './webhook-delivery.service.ts';

/**
 * Webhook retries, deliveries another instance left mid-try, and the log's deliveries older than
 * 30 days (webhooks/webhook-delivery.service.ts): a pass at start and then every 5 s. A new
 * delivery does not wait for it: the instances hear of it once committed.
 */
export function webhookDeliveriesJob(
  delivery: WebhookDelivery,
  everyMs: number = WEBHOOK_DELIVERY.everyMs,
): Job {
  return {
    name: 'webhook_deliveries',
    everyMs,
    jitterMs: 1_000,
    passAtStart: true,
    pass: () => delivery.pass(),
  };
}
