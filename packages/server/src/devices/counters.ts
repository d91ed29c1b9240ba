import { PARSE_FAILURE_REASONS } from '@flowbox/shared';

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

/** What the flowbox ingest (flowboxes/ingest.service.ts) counts. */
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
  /** Messages the server sent to devices (commands, acknowledgements), and those the client refused. */
  outbound: OutboundCounters;
  telemetry: WriterCounters;
  broker: BrokerCounters | null;
  /** The external broker's device accounts, when the server manages them (Mosquitto dynamic security). */
  accounts: AccountCounters | null;
};

export type OutboundCounters = {
  published: number;
  failed: number;
};

/** Refusals of the embedded broker, by cause (issue #4: refused and counted). */
export type BrokerCounters = {
  /** Now: devices connected to the embedded broker (the server's own connections not counted). */
  connected: number;
  connections_accepted: number;
  refused_unknown_identity: number;
  refused_unknown_serial: number;
  refused_wrong_secret: number;
  /** A device whose client id is not its user name (a takeover of another device's session, or empty). */
  refused_client_id: number;
  refused_publish: number;
  refused_subscribe: number;
  /** Connections beyond the per-address cap, closed before a byte was read. */
  refused_connection_limit: number;
  /** Connections closed for announcing a packet over MAX_PACKET_BYTES, before it was buffered. */
  closed_packet_too_large: number;
  /** Connections closed for sending no complete CONNECT within the connect timeout. */
  closed_connect_timeout: number;
  /** Connections closed for staying silent past the idle timeout, whatever keep-alive they announced. */
  closed_idle: number;
};

export type WriterCounters = {
  batches: number;
  stored: number;
  duplicates: number;
  unknown_device: number;
  failed_batches: number;
  /** Readings the database refused for their own values, each isolated from its batch and dropped. */
  rejected: number;
  /** Failed batches written again as two halves, to isolate the reading at fault. */
  splits: number;
  /** Batches tried again: deadlocks and serialisation failures (concurrent batches touching the same rows), lost connections. */
  retries: number;
  largest_batch: number;
  /** Now: readings waiting for a batch (a backlog that grows means the database is behind). */
  queued: number;
  /** Now: readings in batches being written. */
  writing: number;
};
