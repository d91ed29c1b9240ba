import type { Job } from '../jobs/index.ts';
import type { AlertNotifier } from './notifier.ts';

/** The alert job (docs/alerts.md "Jobs"): the sweep and the emails, every 5 s. */
export function alertEmailsJob(notifier: AlertNotifier, everyMs = 5000): Job {
  return {
    name: 'alert_emails',
    everyMs,
    // The whole pass: without the sweep, silent flowboxes and maintenance mode would never be told.
    pass: () => notifier.runPass(),
  };
}
