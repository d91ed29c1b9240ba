import type { Job } from '../jobs/index.ts';
import type { RolloutRunner } from './rollouts.runner.ts';

/** The rollouts (docs/firmware.md "Rollouts"), advanced every 5 s. */
export function firmwareRolloutsJob(runner: RolloutRunner, everyMs = 5_000): Job {
  return { name: 'firmware_rollouts', everyMs, jitterMs: 1_000, pass: () => runner.advanceAll() };
}
