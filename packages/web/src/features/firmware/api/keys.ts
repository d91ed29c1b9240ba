/** Every firmware query sits under this key: a change anywhere in the catalogue or a rollout refreshes them. */
export const FIRMWARE_KEY = ['firmware'] as const;

/**
 * The API pushes no firmware message on the live channel (docs/firmware.md): while an update or a
 * rollout is on its way, its page reads it again at this pace, and stops once it has finished.
 */
export const FIRMWARE_POLL_MS = 2000;
