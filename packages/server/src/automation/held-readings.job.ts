import type { Job } from '../jobs/index.ts';
import type { AutomationService } from './automation.service.ts';

/** How often each instance looks for zones whose held readings have waited their time. */
export const HELD_SWEEP_MS = 2000;

/**
 * The sweep of readings held past a hole in their flowbox's seqs (docs/automation.md "Whatever the
 * delivery"): a pass at start and then every `everyMs`.
 */
export function heldReadingsJob(automation: AutomationService, everyMs = HELD_SWEEP_MS): Job {
  return {
    name: 'held_readings',
    everyMs,
    passAtStart: true,
    pass: () => automation.sweepHeldReadings(),
  };
}
