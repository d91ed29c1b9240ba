import type { LiveMessage } from '@flowbox/shared';
import { useCallback } from 'react';
import type { LiveStatus } from '../../../lib/live.ts';
import { rolloutKey } from '../api/get-rollout.ts';
import { concernsRollout, FIRMWARE_MESSAGES } from '../rollout-live.ts';
import { useLiveRefresh } from './useLiveRefresh.ts';

/**
 * Keeps an open rollout page current (docs/firmware.md "Rollout page"): each pushed change of the
 * rollout or of one of its devices reads the rollout, its devices and its history again (a burst
 * at most twice a second), and so does each (re)opening of the stream. Answers the stream's
 * status, for the slow fallback refresh.
 */
export function useRolloutLive(rolloutId: string): LiveStatus {
  return useLiveRefresh(
    rolloutKey(rolloutId),
    FIRMWARE_MESSAGES,
    useCallback((message: LiveMessage) => concernsRollout(message, rolloutId), [rolloutId]),
  );
}
