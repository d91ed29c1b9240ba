/** Every alert query sits under this key: a live alert message refreshes them all. */
export const ALERTS_KEY = ['alerts'] as const;
