import type { LiveMessage } from '@flowbox/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLiveMessages } from '../../../lib/live.ts';

const AUTOMATION_MESSAGES = ['automation'] as const;

/**
 * Mounted once in the signed-in layout: a zone locked, confirmed or exited shows at once on every
 * open page; the zone's other queries are refetched (its valve state, its commands). After a gap in
 * the stream every zone's automation on screen is read again: a lock pushed in the gap would
 * otherwise stay unseen until a reload.
 */
export function AutomationLiveSync() {
  const queryClient = useQueryClient();
  const apply = useCallback(
    (message: Extract<LiveMessage, { type: 'automation' }>) => {
      const ofZone = (key: readonly unknown[]) => key.includes(message.zone_id);
      for (const query of queryClient.getQueryCache().findAll({
        predicate: (q) => ofZone(q.queryKey) && q.queryKey.at(-1) === 'automation',
      }))
        queryClient.setQueryData(query.queryKey, message.automation);
      void queryClient.invalidateQueries({
        predicate: (q) => ofZone(q.queryKey) && q.queryKey.at(-1) !== 'automation',
      });
    },
    [queryClient],
  );
  const catchUp = useCallback(
    () => void queryClient.invalidateQueries({ predicate: (q) => q.queryKey.at(-1) === 'automation' }),
    [queryClient],
  );
  useLiveMessages(AUTOMATION_MESSAGES, apply, catchUp);
  return null;
}
