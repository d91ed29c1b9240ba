import type { InstanceMetrics, Sample } from '../http/metrics.ts';
import { INGEST_DROP_REASONS, type DeviceCounters } from './counters.ts';
import type { DeviceLink } from './device-link.ts';

/** What device messaging records as it happens (the rest is read from its counters). */
export type DeviceMetrics = {
  /** A telemetry batch's transaction took this long (committed or not). */
  batchWritten: (seconds: number) => void;
};

/** Seconds: a batch commits in milliseconds; a database under load or away takes seconds. */
const BATCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

type Read = <L extends string>(samples: (counters: DeviceCounters) => Sample<L>[]) => () => Sample<L>[];

/**
 * The device pipeline's Prometheus metrics (docs/operations.md "Monitoring"), read from the
 * counters `/v1/metrics` shows: none until messaging has started.
 */
export function deviceMetrics(metrics: InstanceMetrics, link: DeviceLink): DeviceMetrics {
  const read: Read = (samples) => () => (link.counters ? samples(link.counters) : []);
  const one = (value: number) => [{ value }];
  metrics.gaugeFrom('mqtt_messaging_up', 'Whether device messaging is attached (1) or not (0)', [], () =>
    one(link.online ? 1 : 0),
  );
  metrics.counterFrom(
    'mqtt_messages_received_total',
    'Device messages received',
    [],
    read((c) => one(c.ingest.received)),
  );
  metrics.counterFrom(
    'mqtt_messages_handled_total',
    'Device messages handled, by outcome: applied, duplicate (applied once already), not_stored (left unacknowledged)',
    ['outcome'],
    read((c) => [
      { labels: { outcome: 'applied' }, value: c.ingest.applied },
      { labels: { outcome: 'duplicate' }, value: c.ingest.duplicates },
      { labels: { outcome: 'not_stored' }, value: c.ingest.not_stored },
    ]),
  );
  metrics.counterFrom(
    'mqtt_messages_dropped_total',
    'Device messages dropped (and acknowledged), by reason',
    ['reason'],
    read((c) =>
      INGEST_DROP_REASONS.map((reason) => ({ labels: { reason }, value: c.ingest.dropped[reason] })),
    ),
  );
  metrics.counterFrom(
    'mqtt_messages_sent_total',
    'Messages sent to devices (commands, acknowledgements), by outcome',
    ['outcome'],
    read((c) => [
      { labels: { outcome: 'published' }, value: c.outbound.published },
      { labels: { outcome: 'failed' }, value: c.outbound.failed },
    ]),
  );
  metrics.gaugeFrom(
    'mqtt_connected_devices',
    'Devices connected to the embedded broker (absent with an external broker: ask the broker)',
    [],
    read((c) => (c.broker ? one(c.broker.connected) : [])),
  );
  metrics.counterFrom(
    'mqtt_connections_refused_total',
    'Device connections, publishes and subscriptions the embedded broker refused or closed, by cause',
    ['cause'],
    read((c) => {
      const broker = c.broker;
      if (!broker) return [];
      return (Object.keys(broker) as (keyof typeof broker)[])
        .filter((key) => key.startsWith('refused_') || key.startsWith('closed_'))
        .map((cause) => ({ labels: { cause }, value: broker[cause] }));
    }),
  );
  metrics.gaugeFrom(
    'telemetry_readings_pending',
    'Telemetry readings waiting for a batch (queued) or in batches being written (writing)',
    ['state'],
    read((c) => [
      { labels: { state: 'queued' }, value: c.telemetry.queued },
      { labels: { state: 'writing' }, value: c.telemetry.writing },
    ]),
  );
  metrics.counterFrom(
    'telemetry_readings_total',
    'Telemetry readings written, by outcome',
    ['outcome'],
    read((c) => [
      { labels: { outcome: 'stored' }, value: c.telemetry.stored },
      { labels: { outcome: 'duplicate' }, value: c.telemetry.duplicates },
      { labels: { outcome: 'unknown_device' }, value: c.telemetry.unknown_device },
      { labels: { outcome: 'rejected' }, value: c.telemetry.rejected },
    ]),
  );
  metrics.counterFrom(
    'telemetry_batches_total',
    'Telemetry batches: started, failed (not acknowledged), split (to isolate a bad reading), retried',
    ['outcome'],
    read((c) => [
      { labels: { outcome: 'started' }, value: c.telemetry.batches },
      { labels: { outcome: 'failed' }, value: c.telemetry.failed_batches },
      { labels: { outcome: 'split' }, value: c.telemetry.splits },
      { labels: { outcome: 'retried' }, value: c.telemetry.retries },
    ]),
  );
  const batches = metrics.histogram(
    'telemetry_batch_duration_seconds',
    'Telemetry batch transactions: how long each took',
    [],
    BATCH_BUCKETS,
  );
  return { batchWritten: (seconds) => batches.observe(seconds) };
}
