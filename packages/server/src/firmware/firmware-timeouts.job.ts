import type { Job } from '../jobs/index.ts';
import type { FirmwareUpdatesService } from './updates.service.ts';

/** The firmware timeouts (docs/firmware.md "What the server decides"), looked at every 15 s. */
export function firmwareTimeoutsJob(updates: FirmwareUpdatesService, everyMs = 15_000): Job {
  return { name: 'firmware_timeouts', everyMs, jitterMs: 1_000, pass: () => updates.timeOutSilent() };
}
