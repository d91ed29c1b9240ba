import type { Flowbox, LiveMessage } from '@flowbox/shared';
import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useLiveMessages } from '../../../lib/live.ts';
import { CUSTOMERS_KEY } from '../api/list-customers.ts';

const PAIRING_MESSAGES = ['flowbox', 'flowbox_removed'] as const;
/** A pairing this recent may postdate a count read on a browser whose clock is behind the server's. */
const CLOCK_SLACK_MS = 2 * 60_000;

/** The customers list and overviews, whose flowbox counts follow pairings (key ['customers', 'list' | 'info', …]). */
const isCustomerCount = (query: Query, customerId?: string) =>
  query.queryKey[0] === CUSTOMERS_KEY[0] &&
  (query.queryKey[1] === 'list' ||
    (query.queryKey[1] === 'info' && (!customerId || query.queryKey[2] === customerId)));

function refresh(queryClient: QueryClient, customerId?: string, pairedAfter?: number) {
  return queryClient.invalidateQueries({
    predicate: (query) =>
      isCustomerCount(query, customerId) &&
      (pairedAfter === undefined || query.state.dataUpdatedAt < pairedAfter + CLOCK_SLACK_MS),
  });
}

/**
 * Mounted once in the signed-in layout: a customer's flowbox count (spec §2) changes when a pairing
 * is validated or a flowbox leaves, and the screens that show it read it again. A device's
 * ordinary state messages (every few seconds) do not: only its first `ready` seen here, paired
 * after the count was read, or a change from another pairing step to `ready`.
 */
export function CustomersLiveSync() {
  const queryClient = useQueryClient();
  const states = useRef(new Map<string, Flowbox['pairing_state']>());
  const apply = useCallback(
    (message: LiveMessage) => {
      if (message.type === 'flowbox_removed') {
        states.current.delete(message.flowbox_id);
        void refresh(queryClient, message.customer_id);
        return;
      }
      if (message.type !== 'flowbox') return;
      const { flowbox } = message;
      const before = states.current.get(flowbox.id);
      states.current.set(flowbox.id, flowbox.pairing_state);
      if (flowbox.pairing_state !== 'ready' || before === 'ready') return;
      if (before !== undefined) void refresh(queryClient, flowbox.customer_id);
      else if (flowbox.paired_at)
        void refresh(queryClient, flowbox.customer_id, Date.parse(flowbox.paired_at));
    },
    [queryClient],
  );
  useLiveMessages(
    PAIRING_MESSAGES,
    apply,
    useCallback(() => void refresh(queryClient), [queryClient]),
  );
  return null;
}
