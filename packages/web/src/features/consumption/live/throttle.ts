/**
 * Runs `action` at most once per `intervalMs`: the first call at once, calls during the pause
 * once at its end (so the last change is never missed). `cancel` drops a pending run.
 */
export function throttle(
  action: () => void,
  intervalMs: number,
  timers: Pick<Window, 'setTimeout' | 'clearTimeout'> = window,
): { run: () => void; cancel: () => void } {
  let pause: number | undefined;
  let pending = false;
  const endPause = () => {
    pause = undefined;
    if (!pending) return;
    pending = false;
    action();
    pause = timers.setTimeout(endPause, intervalMs);
  };
  return {
    run: () => {
      if (pause !== undefined) {
        pending = true;
        return;
      }
      action();
      pause = timers.setTimeout(endPause, intervalMs);
    },
    cancel: () => {
      timers.clearTimeout(pause);
      pause = undefined;
      pending = false;
    },
  };
}
