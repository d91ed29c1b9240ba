/** Every plumber query starts with this key, so a saved or deleted plumber refreshes them all. */
export const plumbersKey = ['plumbers'] as const;
