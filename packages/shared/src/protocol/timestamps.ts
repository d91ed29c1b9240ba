import { OFFLINE_BUFFER_MAX_MESSAGES, TELEMETRY_INTERVAL_S } from './topics.ts';

/*
 * How far a device's timestamp may be from the server's clock (docs/protocol.md "Timestamps and
 * their bounds", issue #13 item 4). The server compares the `at` of every reading, state, event
 * and acknowledgement with its own clock when the message arrives; outside the window the message
 * is dropped and counted (`stale` or `future`) and acknowledged all the same, as a malformed one
 * is: sending it again would change nothing, and the device moves on. A date the database cannot
 * store (year 0) and one that would pass for "the newest" for ever (year 9999) never get in.
 */

/** A device buffers a week of minute readings while offline (OFFLINE_BUFFER_MAX_MESSAGES)… */
const BUFFERED_S = OFFLINE_BUFFER_MAX_MESSAGES * TELEMETRY_INTERVAL_S;
/**
 * …so a timestamp older than 35 days is no replay the protocol allows: five times that week, for a
 * replay that crawls, an outage noticed late, a clock a few days behind.
 */
export const MAX_DEVICE_TIMESTAMP_AGE_S = 35 * 86_400;
/**
 * A device clock may run ahead of the server's by this much (a device SNTP-corrected minutes
 * later, the link's latency); beyond it the timestamp is not a time that happened yet.
 */
export const MAX_DEVICE_TIMESTAMP_AHEAD_S = 15 * 60;

// The window covers the whole offline buffer, with room to spare.
if (MAX_DEVICE_TIMESTAMP_AGE_S < 2 * BUFFERED_S)
  throw new Error('the timestamp window is shorter than the buffer');

export type TimestampVerdict = 'ok' | 'stale' | 'future';

/** Where a device's `at` (ISO 8601, already checked by the schema) falls against the server's receipt time. */
export function deviceTimestampVerdict(at: string, receivedAtMs: number): TimestampVerdict {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms) || ms < receivedAtMs - MAX_DEVICE_TIMESTAMP_AGE_S * 1000) return 'stale';
  if (ms > receivedAtMs + MAX_DEVICE_TIMESTAMP_AHEAD_S * 1000) return 'future';
  return 'ok';
}
