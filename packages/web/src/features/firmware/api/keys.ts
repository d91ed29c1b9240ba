/** Every firmware query sits under this key: a change anywhere in the catalogue or a rollout refreshes them. */
export const FIRMWARE_KEY = ['firmware'] as const;

/**
 * While a list of rollouts has one on its way, it reads itself again at this pace, and stops once
 * they have finished. The rollout page and a flowbox's firmware card follow the live channel
 * instead (useRolloutLive, FlowboxFirmwareCard).
 */
export const FIRMWARE_POLL_MS = 2000;
