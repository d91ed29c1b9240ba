import { setTimeout as sleep } from 'node:timers/promises';
import {
  FIRMWARE_DOWNLOAD_ATTEMPTS,
  parseFirmwareFileName,
  type AckRefusalReason,
  type Command,
  type DEVICE_FIRMWARE_STATES,
  type FirmwareFailureReason,
  type FlowboxModel,
} from '@flowbox/shared';
import { FirmwareDownload, type DownloadFaults } from './firmware-download.ts';
import type { FirmwareFault } from './firmware-faults.ts';

export type UpdateFirmwareCommand = Extract<Command, { name: 'update_firmware' }>;

/** One `firmware_progress` event, less what the device adds (update id, version, seq, time). */
export type FirmwareReport = {
  state: (typeof DEVICE_FIRMWARE_STATES)[number];
  progress_pct: number | null;
  bytes?: number | null;
  reason?: FirmwareFailureReason | null;
};

/** What an update needs from its device. */
export type FirmwareDevice = {
  serial: string;
  model: FlowboxModel;
  /** The device secret, for HTTP Basic. */
  secret: string | undefined;
  faults: readonly FirmwareFault[];
  /** Real milliseconds before a download is tried again. */
  retryDelayMs: number;
  /** The protocol clock: progress is reported at least every 10 s of it while bytes arrive. */
  now(): number;
  report(report: FirmwareReport): void;
  /**
   * Reboots (reason `firmware_update`) into the new image, or into the old one when the install
   * rolls back; resolves once the device is back and its `reboot` event is queued.
   */
  install(version: string, rollsBack: boolean): Promise<void>;
};

/** How an update ends: the final ack to send, or none (silenced by a fault, or the device stopped). */
export type FirmwareUpdateEnd =
  { ack: 'done' } | { ack: 'refused'; reason: AckRefusalReason } | { ack: null; silenced: boolean };

/** docs/firmware.md: progress events while downloading, at most every 5 % or 10 s. */
const PROGRESS_STEP_PCT = 5;
const PROGRESS_PERIOD_MS = 10_000;

const FAILED: FirmwareUpdateEnd = { ack: 'refused', reason: 'hardware_fault' };

/**
 * Runs one `update_firmware` on a device (docs/firmware.md "Device protocol"): checks the name
 * against its model, downloads (resuming cut connections, starting over after a checksum
 * mismatch, `FIRMWARE_DOWNLOAD_ATTEMPTS` requests in all), verifies, installs by rebooting, and
 * says each state as it goes. `signal` stops it without a word (the device stops).
 */
export async function runFirmwareUpdate(
  device: FirmwareDevice,
  params: UpdateFirmwareCommand['params'],
  signal: AbortSignal,
): Promise<FirmwareUpdateEnd> {
  const name = parseFirmwareFileName(params.file_name);
  if (!name || name.version !== params.version || !name.models.includes(device.model)) {
    device.report({ state: 'invalid_naming', progress_pct: null });
    return { ack: 'refused', reason: 'invalid_params' };
  }
  const silentAt = findFault(device.faults, 'silent')?.atPct;
  const silence = new AbortController();
  const stop = AbortSignal.any([signal, silence.signal]);
  const download = new FirmwareDownload(
    {
      url: params.url,
      size: params.size,
      sha256: params.sha256,
      serial: device.serial,
      secret: device.secret,
    },
    downloadFaults(device.faults, params.size),
  );
  const pct = (bytes: number) => Math.min(100, Math.floor((bytes * 1000) / params.size) / 10);
  let last: { bytes: number; at: number } | null = null;
  const reportStarted = (bytes: number) => {
    last = { bytes, at: device.now() };
    device.report({ state: 'started', progress_pct: pct(bytes), bytes });
  };
  const onStart = () => {
    if (last === null) reportStarted(download.bytes);
  };
  const onData = (bytes: number) => {
    if (silentAt !== undefined && pct(bytes) >= silentAt) {
      silence.abort();
      return;
    }
    if (last !== null && bytes < params.size && progressDue(last, bytes, device.now(), params.size))
      reportStarted(bytes);
  };

  device.report({ state: 'requesting', progress_pct: null });
  for (let attempt = 1; ; attempt++) {
    const outcome = await download.attempt(stop, onStart, onData);
    if (outcome.kind === 'aborted') return { ack: null, silenced: silence.signal.aborted };
    // The server has ended the update: nothing more to say about it.
    if (outcome.kind === 'gone') return FAILED;
    if (outcome.kind === 'refused') {
      device.report({ state: 'failed', progress_pct: null, reason: 'download_failed' });
      return FAILED;
    }
    if (outcome.kind === 'complete' && download.verify()) break;
    // A mismatch is not final (docs/firmware.md): the next `requesting` says the device starts over.
    const reason = outcome.kind === 'complete' ? 'checksum_mismatch' : 'download_failed';
    if (attempt >= FIRMWARE_DOWNLOAD_ATTEMPTS) {
      device.report({ state: 'block_download_failed', progress_pct: null, reason });
      return FAILED;
    }
    try {
      await sleep(device.retryDelayMs, undefined, { signal });
    } catch {
      return { ack: null, silenced: false };
    }
    if (reason === 'checksum_mismatch') {
      download.restart();
      last = null;
      device.report({ state: 'requesting', progress_pct: null });
    }
  }

  device.report({ state: 'downloaded', progress_pct: 100, bytes: params.size });
  const rollsBack = findFault(device.faults, 'rollback') !== undefined;
  await device.install(params.version, rollsBack);
  if (rollsBack) {
    device.report({ state: 'failed', progress_pct: null, reason: 'rolled_back' });
    return FAILED;
  }
  device.report({ state: 'success', progress_pct: 100 });
  return { ack: 'done' };
}

/**
 * Whether the next `started` event is due (docs/firmware.md: at most every 5 % or 10 s): 5 % more
 * of the image since the last one, or 10 s since it with some bytes more.
 */
export function progressDue(
  last: { bytes: number; at: number },
  bytes: number,
  now: number,
  size: number,
): boolean {
  const stepped = (bytes - last.bytes) * 100 >= PROGRESS_STEP_PCT * size;
  const overdue = now - last.at >= PROGRESS_PERIOD_MS && bytes > last.bytes;
  return stepped || overdue;
}

function findFault<K extends FirmwareFault['kind']>(
  faults: readonly FirmwareFault[],
  kind: K,
): Extract<FirmwareFault, { kind: K }> | undefined {
  return faults.find((f): f is Extract<FirmwareFault, { kind: K }> => f.kind === kind);
}

function downloadFaults(faults: readonly FirmwareFault[], size: number): DownloadFaults {
  return {
    bytesPerS: findFault(faults, 'slow')?.bytesPerS,
    cutAfterBytes: findFault(faults, 'interrupted')?.afterBytes,
    corruptAt: findFault(faults, 'corrupt') ? Math.floor(size / 2) : undefined,
  };
}
