import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LiveMessage } from '@flowbox/shared';
import { useLiveMessages } from '../../../lib/live.ts';
import { applyLiveMessage, refreshAfterGap } from './live-cache.ts';

const FLOWBOX_MESSAGES = ['flowbox', 'flowbox_removed', 'command'] as const;

/** Mounted once in the signed-in layout: device state, removals and command outcomes reach the cache. */
export function FlowboxLiveSync() {
  const queryClient = useQueryClient();
  const apply = useCallback((message: LiveMessage) => applyLiveMessage(queryClient, message), [queryClient]);
  useLiveMessages(
    FLOWBOX_MESSAGES,
    apply,
    useCallback(() => void refreshAfterGap(queryClient), [queryClient]),
  );
  return null;
}
