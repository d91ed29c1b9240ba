import type { FirmwareState } from './protocol/messages.ts';
import { FLOWBOX_MODELS, type FlowboxModel } from './domain/flowboxes.ts';

/**
 * Firmware updates (docs/firmware.md): the image naming convention, the update and rollout states
 * and the limits both the server and the simulated device obey.
 */

/** Larger images are refused with 413 `errors.firmware_too_large`. */
export const FIRMWARE_MAX_BYTES = 16 * 1024 * 1024;
/** The `update_firmware` command's lifetime: the device must accept it within it. */
export const FIRMWARE_COMMAND_TTL_S = 600;
/**
 * How long a download URL stays valid from its command: the longest an update may spend
 * downloading (16 MiB at 4.6 kB/s). Past it the update is `timeout` and the URL answers 410, so an
 * old URL (in a log, a proxy) opens nothing (docs/firmware.md "Device protocol").
 */
export const FIRMWARE_URL_TTL_S = 3_600;
/** Silence allowed while requesting or downloading before the server says `timeout`. */
export const FIRMWARE_PROGRESS_TIMEOUT_S = 600;
/** Silence allowed while installing (after `downloaded`) before the server says `timeout`. */
export const FIRMWARE_INSTALL_TIMEOUT_S = 900;
/** Downloads (a first one plus resumes) allowed before the update is `block_download_failed`. */
export const FIRMWARE_DOWNLOAD_ATTEMPTS = 5;

/** `MAJOR.MINOR.PATCH`, digits without leading zeros. */
export const FIRMWARE_VERSION_PATTERN = /^(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})\.(0|[1-9]\d{0,3})$/;
const FILE_NAME_PATTERN = /^flowbox-([a-z_0-9+]+)-([0-9.]+)\.bin$/;

export type FirmwareFileName = { models: FlowboxModel[]; version: string };

/**
 * Reads `flowbox-{models}-{version}.bin` (models joined by `+`, each once); null when the name does
 * not follow the convention. The server and the device both check an image's name with it.
 */
export function parseFirmwareFileName(fileName: string): FirmwareFileName | null {
  const match = FILE_NAME_PATTERN.exec(fileName);
  if (!match) return null;
  const [, modelPart, version] = match as unknown as [string, string, string];
  if (!FIRMWARE_VERSION_PATTERN.test(version)) return null;
  const models = modelPart.split('+');
  if (new Set(models).size !== models.length) return null;
  if (!models.every((m): m is FlowboxModel => (FLOWBOX_MODELS as readonly string[]).includes(m))) return null;
  return { models: models as FlowboxModel[], version };
}

/** The canonical name of an image for these models (in catalogue order) and version. */
export function firmwareFileName(models: readonly FlowboxModel[], version: string): string {
  const ordered = FLOWBOX_MODELS.filter((m) => models.includes(m));
  return `flowbox-${ordered.join('+')}-${version}.bin`;
}

/** True when the name's models and version are exactly the declared ones (any model order). */
export function firmwareNameMatches(
  fileName: string,
  declared: { models: readonly FlowboxModel[]; version: string },
): boolean {
  const parsed = parseFirmwareFileName(fileName);
  if (!parsed || parsed.version !== declared.version) return false;
  return (
    parsed.models.length === declared.models.length && parsed.models.every((m) => declared.models.includes(m))
  );
}

/** Orders versions numerically (`2.10.0` after `2.9.3`); both must match FIRMWARE_VERSION_PATTERN. */
export function compareFirmwareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** spec §4 states plus the server's own for rollouts: waiting its turn, skipped, cancelled. */
export const FIRMWARE_UPDATE_STATES = ['scheduled', 'skipped', 'cancelled'] as const;
export type FirmwareUpdateState = FirmwareState | (typeof FIRMWARE_UPDATE_STATES)[number];
export const ALL_FIRMWARE_UPDATE_STATES = [
  'scheduled',
  'requested',
  'requesting',
  'started',
  'downloaded',
  'success',
  'failed',
  'invalid_naming',
  'timeout',
  'block_download_failed',
  'skipped',
  'cancelled',
] as const satisfies readonly FirmwareUpdateState[];

/** Between these the update is on its way: it counts against a rollout's concurrency. */
export const FIRMWARE_ACTIVE_STATES = [
  'requested',
  'requesting',
  'started',
  'downloaded',
] as const satisfies readonly FirmwareUpdateState[];
/** The failures a rollout's halt threshold counts. */
export const FIRMWARE_FAILURE_STATES = [
  'failed',
  'invalid_naming',
  'timeout',
  'block_download_failed',
] as const satisfies readonly FirmwareUpdateState[];
export const FIRMWARE_FINAL_STATES = [
  'success',
  ...FIRMWARE_FAILURE_STATES,
  'skipped',
  'cancelled',
] as const satisfies readonly FirmwareUpdateState[];

export function isFinalFirmwareState(state: FirmwareUpdateState): boolean {
  return (FIRMWARE_FINAL_STATES as readonly string[]).includes(state);
}
export function isFirmwareFailure(state: FirmwareUpdateState): boolean {
  return (FIRMWARE_FAILURE_STATES as readonly string[]).includes(state);
}

/**
 * How the screens group an update's states (docs/firmware.md "Rollout page"): waiting its turn, on
 * its way (requested to downloaded), updated, failed, or left out (skipped, cancelled).
 */
export const FIRMWARE_STATE_GROUPS = ['waiting', 'running', 'success', 'failed', 'left_out'] as const;
export type FirmwareStateGroup = (typeof FIRMWARE_STATE_GROUPS)[number];

export function firmwareStateGroup(state: FirmwareUpdateState): FirmwareStateGroup {
  if (state === 'scheduled') return 'waiting';
  if ((FIRMWARE_ACTIVE_STATES as readonly string[]).includes(state)) return 'running';
  if (state === 'success') return 'success';
  if (isFirmwareFailure(state)) return 'failed';
  return 'left_out';
}

/** At most this many points in a rollout's states over time (GET /firmware/rollouts/{id}/timeline). */
export const ROLLOUT_TIMELINE_MAX_POINTS = 240;

/** Why a failed update failed, as the device or the server says it. */
export const FIRMWARE_FAILURE_REASONS = [
  'checksum_mismatch',
  'install_failed',
  'rolled_back',
  'download_failed',
  'refused',
  'model_mismatch',
] as const;
export type FirmwareFailureReason = (typeof FIRMWARE_FAILURE_REASONS)[number];

/** Why a rollout did not start a device (skipped) or keeps it waiting. */
export const FIRMWARE_SKIP_REASONS = [
  'zone_locked',
  'valve_command_pending',
  'offline',
  'already_on_version',
  'already_updating',
  'waiting_opening_hours',
  /** Waiting its turn in another running or paused rollout: that one updates it. */
  'in_other_rollout',
  /** The image is no longer released to the device's customer. */
  'not_released',
] as const;
export type FirmwareSkipReason = (typeof FIRMWARE_SKIP_REASONS)[number];

export const FIRMWARE_IMAGE_STATUSES = ['active', 'deprecated', 'withdrawn'] as const;
export type FirmwareImageStatus = (typeof FIRMWARE_IMAGE_STATUSES)[number];

export const ROLLOUT_STATES = ['running', 'paused', 'halted', 'cancelled', 'completed'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
/** Why a rollout halted by itself. */
export const ROLLOUT_HALT_REASONS = ['failure_threshold', 'image_withdrawn'] as const;
export type RolloutHaltReason = (typeof ROLLOUT_HALT_REASONS)[number];

/** Rollout defaults (docs/firmware.md "Rollouts"). */
export const ROLLOUT_DEFAULTS = {
  wavesPct: [5, 25, 50, 100],
  startJitterS: 300,
  maxConcurrent: 50,
  failureThresholdPct: 10,
  duringOpeningHours: false,
} as const;
export const ROLLOUT_MAX_WAVES = 10;
export const ROLLOUT_MAX_JITTER_S = 86_400;
export const ROLLOUT_MAX_CONCURRENT = 1000;

/**
 * How many of `total` devices the waves hold, cumulatively: each wave at least one more device than
 * the last while devices remain, the last wave all of them.
 */
export function waveSizes(total: number, wavesPct: readonly number[]): number[] {
  const sizes: number[] = [];
  let reached = 0;
  for (const [i, pct] of wavesPct.entries()) {
    if (reached >= total) break;
    const last = i === wavesPct.length - 1;
    const cumulative = last ? total : Math.min(total, Math.max(reached + 1, Math.ceil((total * pct) / 100)));
    sizes.push(cumulative - reached);
    reached = cumulative;
  }
  return sizes;
}

/** A wave halts its rollout when its failures exceed the threshold share of its size. */
export function waveBreachesThreshold(failures: number, waveSize: number, thresholdPct: number): boolean {
  return waveSize > 0 && failures * 100 > thresholdPct * waveSize;
}
