import type { Job } from '../jobs/index.ts';
import type { FlowboxIngest } from './ingest.service.ts';

/** How often each instance looks for silent flowboxes (docs/devices.md "Ingest"). */
export const HEARTBEAT_CHECK_MS = 15_000;

/** Flowboxes silent for three heartbeats are marked disconnected, for half-open connections. */
export function heartbeatCheckJob(ingest: FlowboxIngest, everyMs = HEARTBEAT_CHECK_MS): Job {
  return { name: 'heartbeat_check', everyMs, pass: () => ingest.detectSilentDevices() };
}
