/**
 * The server's way to the devices (docs/devices.md): the link the services send through, and what
 * the device pipeline counts. Its own module so that flowboxes, mqtt and telemetry all import it
 * and none of them imports another to reach a device.
 */
export {
  DeviceLink,
  type DeviceAccounts,
  type DeviceAuthenticator,
  type DevicePublisher,
} from './device-link.ts';
export {
  INGEST_DROP_REASONS,
  type AccountCounters,
  type BrokerCounters,
  type DeviceCounters,
  type DropReason,
  type IngestCounters,
  type OutboundCounters,
  type WriterCounters,
} from './counters.ts';
export { deviceMetrics, type DeviceMetrics } from './metrics.ts';
export { toApiFlowbox } from './flowbox-form.ts';
