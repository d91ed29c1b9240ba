import type { InstanceMetrics } from '../http/metrics.ts';
import { DOWNLOAD_OUTCOMES, type FirmwareDownloadService } from './download.service.ts';

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
