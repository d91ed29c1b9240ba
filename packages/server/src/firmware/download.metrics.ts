import type { InstanceMetrics } from '../http/metrics.ts';
import { DOWNLOAD_OUTCOMES, type FirmwareDownloadService } from './download.service.ts';
import { FIRMWARE_MESSAGE_OUTCOMES, type FirmwareUpdatesService } from './updates.service.ts';

/** Firmware downloads of this instance (docs/operations.md "Monitoring"), read from the service's counters. */
export function firmwareDownloadMetrics(metrics: InstanceMetrics, downloads: FirmwareDownloadService): void {
  metrics.counterFrom(
    'firmware_downloads_total',
    'Firmware downloads by outcome: whole, resumed (from a byte past 0), or refused: unauthorized (device credentials), forbidden (token), gone (update no longer downloading)',
    ['outcome'],
    () =>
      DOWNLOAD_OUTCOMES.map((outcome) => ({
        labels: { outcome },
        value: downloads.counters.downloads[outcome],
      })),
  );
  metrics.counterFrom('firmware_download_bytes_total', 'Bytes of firmware images sent to devices', [], () => [
    { value: downloads.counters.bytes },
  ]);
}

/**
 * The devices' firmware progress messages of this instance by outcome (docs/operations.md
 * "Monitoring"): a rising `late` or `out_of_order` says devices and server disagree on updates.
 */
export function firmwareMessageMetrics(metrics: InstanceMetrics, updates: FirmwareUpdatesService): void {
  metrics.counterFrom(
    'firmware_device_messages_total',
    'Firmware progress messages from devices by outcome: moved (a new state), progress, confirmed (the final state the server had decided), or ignored: late (update already ended otherwise), out_of_order (would go backwards), unknown_update',
    ['outcome'],
    () =>
      FIRMWARE_MESSAGE_OUTCOMES.map((outcome) => ({ labels: { outcome }, value: updates.counters[outcome] })),
  );
}
