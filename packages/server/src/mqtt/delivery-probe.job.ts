import type { Job } from '../jobs/index.ts';
import type { DeviceMessaging } from './messaging.ts';

/**
 * A delivery probe every 5 s: a broker that stops delivering is reported (and subscribed to again)
 * within 10 s, for one small message per connection every 5 s.
 */
export const PROBE_EVERY_MS = 5000;

/** Each ingest connection checks that its last probe came back, and sends the next (ingest-connection.ts). */
export function deliveryProbeJob(
  messaging: Pick<DeviceMessaging, 'probeDelivery'>,
  everyMs = PROBE_EVERY_MS,
): Job {
  return { name: 'delivery_probe', everyMs, pass: async () => messaging.probeDelivery() };
}
