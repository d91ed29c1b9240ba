import type { Job } from '../jobs/index.ts';
import { PUSH_DELIVERY, type PushDelivery } from './push-delivery.service.ts';

/**
 * Web Push retries, and messages another instance left mid-try (push/push-delivery.service.ts): a
 * pass at start and then every 5 s. A new message does not wait for it: it is tried once queued.
 */
export function pushDeliveriesJob(delivery: PushDelivery, everyMs: number = PUSH_DELIVERY.everyMs): Job {
  return {
    name: 'push_deliveries',
    everyMs,
    jitterMs: 1_000,
    passAtStart: true,
    pass: () => delivery.deliverDue(),
  };
}
