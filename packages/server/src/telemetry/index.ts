/** Telemetry ingest (issue #6, docs/telemetry.md): the batch writer, rollups and the listener hook. */
export { TelemetryHooks, type StoredReading, type TelemetryListener } from './hooks.ts';
export { DiskFullError, TelemetryWriter, type Outcome, type WriterOptions } from './writer.ts';
export { dayOf, hourOf, placedAt } from './time.ts';
export { addToRollups } from './batch-store.ts';
export type { RolledReading } from './rollups.ts';
