export const RELOADED_AT_KEY = 'chunk-reload-at';
/** A reload this recent already fetched the newest build: the chunk is missing for another reason. */
const RELOAD_AGAIN_AFTER_MS = 60_000;

/**
 * A page's chunk the server no longer has: this tab still runs the previous build, whose chunks a
 * deploy replaced. Browsers word it differently (Chromium, Firefox, Safari; Vite's CSS preload).
 */
export function isMissingChunk(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(error.message)
  );
}

export function mayReload(): boolean {
  const last = Number(window.sessionStorage.getItem(RELOADED_AT_KEY));
  return !(last > 0 && Date.now() - last < RELOAD_AGAIN_AFTER_MS);
}
