import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/index.ts';
import { checkOpenAlertCounts, foldOpenAlertCounts } from './open-alert-counts.repo.ts';

/** How often each instance adds the open-alert changes to the flowboxes' counts. */
export const OPEN_ALERT_COUNTS_MS = 5000;

/**
 * The flowboxes' open-alert counts (migration 0020, docs/fleet.md "Speed"): each pass adds what
 * the triggers appended since the last one, a batch at a time until none is left, and recounts a
 * slice of flowboxes to set right a count a race left wrong. One instance at a time does it (an
 * advisory lock); the others' passes find it held and do nothing.
 */
export function fleetOpenAlertCountsJob(db: Db, everyMs = OPEN_ALERT_COUNTS_MS): Job {
  return {
    name: 'fleet_open_alert_counts',
    everyMs,
    passAtStart: true,
    pass: async () => {
      let folded = 0;
      for (let taken = await foldOpenAlertCounts(db); taken > 0; taken = await foldOpenAlertCounts(db))
        folded += taken;
      return folded + (await checkOpenAlertCounts(db));
    },
  };
}
