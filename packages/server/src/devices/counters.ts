import { PARSE_FAILURE_REASONS } from '@flowbox/shared';
import type { BrokerCounters } from '../mqtt/broker.ts';
import type { WriterCounters } from '../telemetry/writer.ts';

/**
 * Why a device message was dropped (and acknowledged: sending it again would change nothing).
 * `stale` and `future`: its `at` outside the window around the server's clock
 * (docs/protocol.md "Timestamps and their bounds"); `rejected`: a reading whose values the
 * database refused, isolated from its batch.
 */
export const INGEST_DROP_REASONS = [
  ...PARSE_FAILURE_REASONS,
  'unknown_device',
  'stale',
  'future',
  'rejected',
] as const;
export type DropReason = (typeof INGEST_DROP_REASONS)[number];

/** What the flowbox ingest (flowboxes/ingest.ts) counts. */
export type IngestCounters = {
  received: number;
  applied: number;
  /** Redelivered or replayed events (same flowbox + seq), applied once already. */
  duplicates: number;
  dropped: Record<DropReason, number>;
  /** Messages left unacknowledged because storing them failed (the device or broker sends them again). */
  not_stored: number;
  /** States, events and acks whose `at` lay outside the window: applied, dated by the server. */
  misdated: number;
};

export type AccountCounters = {
  granted: number;
  grant_failures: number;
  revoked: number;
  revoke_failures: number;
  reconcile_passes: number;
  reconcile_failures: number;
  /** Accounts the broker had and the database did not know, removed by reconcile passes. */
  reconcile_removed: number;
  /** Live credentials without their account on the broker at the latest pass (only a new pairing mends them). */
  missing: number;
};

/** What `/v1/metrics` shows: ingest drops by reason, the telemetry writer, the embedded broker's refusals. */
export type DeviceCounters = {
  ingest: IngestCounters;
  telemetry: WriterCounters;
  broker: BrokerCounters | null;
  /** The external broker's device accounts, when the server manages them (Mosquitto dynamic security). */
  accounts: AccountCounters | null;
};
