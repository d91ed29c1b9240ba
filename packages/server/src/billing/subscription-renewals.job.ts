import type { Job } from '../jobs/index.ts';
import type { ZoneSubscriptionsService } from './subscriptions.service.ts';

/**
 * spec §4 subscription renewal: renewals fall due by the day, so an hourly pass on every instance
 * is enough; each renewal is claimed by one of them (docs/billing.md).
 */
export function subscriptionRenewalsJob(subscriptions: ZoneSubscriptionsService, everyMs = 3_600_000): Job {
  return { name: 'subscription_renewals', everyMs, pass: () => subscriptions.renewDue() };
}
