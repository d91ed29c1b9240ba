import type { Job } from '../jobs/index.ts';
import type { AutomationService } from './automation.service.ts';

/** How often each instance supervises unconfirmed safety closes. */
export const SAFETY_PASS_MS = 1000;

/** The supervision of unconfirmed safety closes, a pass at start and then every `everyMs`. */
export function safetyCloseSupervisionJob(automation: AutomationService, everyMs = SAFETY_PASS_MS): Job {
  return {
    name: 'safety_close_supervision',
    everyMs,
    passAtStart: true,
    pass: () => automation.superviseSafetyCloses(),
  };
}
