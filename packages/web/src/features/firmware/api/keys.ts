/** Every firmware query sits under this key: a change anywhere in the catalogue or a rollout refreshes them. */
export const FIRMWARE_KEY = ['firmware'] as const;
