import type { LiveMessage } from '@flowbox/shared';
import type { LiveStatus } from '../../lib/live.ts';

/**
 * While the live stream is down, an open rollout page still reads its rollout again at this pace
 * (docs/firmware.md "Rollout page"): slower than the pushes it stands in for, enough to move on.
 */
export const ROLLOUT_FALLBACK_MS = 10_000;
/** Pushes closer than this are read in one go: a thousand devices reporting do not mean a thousand reads. */
export const ROLLOUT_COALESCE_MS = 500;

/** The pushed messages of firmware: a rollout's change, or a step of one device's update. */
export const FIRMWARE_MESSAGES = ['firmware_rollout', 'firmware_update'] as const;

/**
 * Whether a pushed message changes what the rollout page shows: the rollout itself (its state,
 * wave or counts) or one of its devices' updates (a state or progress).
 */
export function concernsRollout(message: LiveMessage, rolloutId: string): boolean {
  if (message.type === 'firmware_rollout') return message.rollout_id === rolloutId;
  if (message.type === 'firmware_update') return message.update.rollout_id === rolloutId;
  return false;
}

/** Whether a pushed message is a step of one of this flowbox's updates (its firmware card). */
export function concernsFlowboxFirmware(message: LiveMessage, flowboxId: string): boolean {
  return message.type === 'firmware_update' && message.update.flowbox_id === flowboxId;
}

/**
 * How often the page reads the rollout by itself: never once it is over; never while the live
 * stream brings each change; slowly while the stream is down.
 */
export function rolloutRefetchMs(over: boolean, live: LiveStatus): number | false {
  if (over) return false;
  return live === 'connected' ? false : ROLLOUT_FALLBACK_MS;
}

type Timers = {
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
};

/**
 * `run` at most once per `ms`: the first call runs at once, the calls during the following `ms`
 * make one more run at its end (so the last change is never missed). `cancel` drops a pending run.
 */
export function coalesce(
  run: () => void,
  ms: number,
  timers: Timers = {
    setTimer: (f, delay) => setTimeout(f, delay),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  },
): { trigger: () => void; cancel: () => void } {
  let timer: unknown = null;
  let pending = false;
  const open = () => {
    timer = timers.setTimer(() => {
      timer = null;
      if (!pending) return;
      pending = false;
      run();
      open();
    }, ms);
  };
  return {
    trigger: () => {
      if (timer !== null) {
        pending = true;
        return;
      }
      run();
      open();
    },
    cancel: () => {
      if (timer !== null) timers.clearTimer(timer);
      timer = null;
      pending = false;
    },
  };
}
