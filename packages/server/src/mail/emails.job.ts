import type { Job } from '../jobs/index.ts';
import { EMAIL_DELIVERY, type Mailer } from './mailer.ts';

/**
 * Email retries, and emails another instance left mid-try (mail/mailer.ts): with a relay only
 * (SMTP_URL), a pass at start and then every 10 s.
 */
export function emailsJob(mailer: Mailer, everyMs: number = EMAIL_DELIVERY.everyMs): Job {
  return { name: 'emails', everyMs, jitterMs: 2_000, passAtStart: true, pass: () => mailer.deliverDue() };
}
