import type { LiveMessage } from '@flowbox/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  coalesce,
  concernsFlowboxFirmware,
  concernsRollout,
  ROLLOUT_FALLBACK_MS,
  rolloutRefetchMs,
} from './rollout-live.ts';

const ROLLOUT = '0b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const OTHER = '1b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
const place = {
  customer_id: '2b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
  site_id: '3b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
};

const rolloutMessage = (rolloutId: string): LiveMessage => ({
  type: 'firmware_rollout',
  rollout_id: rolloutId,
  state: 'running',
  ...place,
});

const updateMessage = (rolloutId: string | null): LiveMessage =>
  ({
    type: 'firmware_update',
    update: { rollout_id: rolloutId, state: 'started', progress_pct: 40 },
    ...place,
    zone_id: '4b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
  }) as unknown as LiveMessage;

describe('rollout page live updates', () => {
  it('reads again for its rollout and its devices, not for other rollouts or single updates', () => {
    expect(concernsRollout(rolloutMessage(ROLLOUT), ROLLOUT)).toBe(true);
    expect(concernsRollout(updateMessage(ROLLOUT), ROLLOUT)).toBe(true);
    expect(concernsRollout(rolloutMessage(OTHER), ROLLOUT)).toBe(false);
    expect(concernsRollout(updateMessage(OTHER), ROLLOUT)).toBe(false);
    expect(concernsRollout(updateMessage(null), ROLLOUT)).toBe(false);
    expect(
      concernsRollout(
        { type: 'flowbox_removed', flowbox_id: OTHER, ...place } as unknown as LiveMessage,
        ROLLOUT,
      ),
    ).toBe(false);
  });

  it('does not poll while the stream is up, falls back to a slow refresh while it is down, stops when over', () => {
    expect(rolloutRefetchMs(false, 'connected')).toBe(false);
    expect(rolloutRefetchMs(false, 'reconnecting')).toBe(ROLLOUT_FALLBACK_MS);
    expect(rolloutRefetchMs(false, 'connecting')).toBe(ROLLOUT_FALLBACK_MS);
    expect(rolloutRefetchMs(true, 'reconnecting')).toBe(false);
    expect(ROLLOUT_FALLBACK_MS).toBeGreaterThanOrEqual(5_000);
  });

  it('coalesces a burst of pushes into one read now and one at the end of the window', () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn();
      const { trigger, cancel } = coalesce(run, 500);
      trigger();
      expect(run).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 50; i += 1) trigger();
      expect(run).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(500);
      expect(run).toHaveBeenCalledTimes(2);
      // A quiet window ends without another read; the next push reads at once.
      vi.advanceTimersByTime(500);
      expect(run).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(1_000);
      trigger();
      expect(run).toHaveBeenCalledTimes(3);
      trigger();
      cancel();
      vi.advanceTimersByTime(1_000);
      expect(run).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a flowbox's firmware card, live (issue 17: no longer polled every two seconds)", () => {
  const FLOWBOX = '5b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10';
  const step = (flowboxId: string) =>
    ({
      type: 'firmware_update',
      update: { flowbox_id: flowboxId, rollout_id: null, state: 'started', progress_pct: 40 },
      ...place,
      zone_id: '4b9f5c1e-3f2a-4c61-9a57-2d1c5b8e7f10',
    }) as unknown as LiveMessage;

  it("reads again on each step of its own flowbox's update, not another's nor a rollout's", () => {
    expect(concernsFlowboxFirmware(step(FLOWBOX), FLOWBOX)).toBe(true);
    expect(concernsFlowboxFirmware(step(OTHER), FLOWBOX)).toBe(false);
    expect(concernsFlowboxFirmware(rolloutMessage(ROLLOUT), FLOWBOX)).toBe(false);
  });

  it('polls only while an update runs and the stream is down', () => {
    // The card asks rolloutRefetchMs(!running, live).
    expect(rolloutRefetchMs(false, 'connected')).toBe(false);
    expect(rolloutRefetchMs(false, 'reconnecting')).toBe(ROLLOUT_FALLBACK_MS);
    expect(rolloutRefetchMs(true, 'reconnecting')).toBe(false);
  });
});
