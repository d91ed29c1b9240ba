import type { OutboxEmail } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type OutboxList = { items: OutboxEmail[]; total: number };

/** Emails the product sent: in the embedded set-up, where invitation and reset links are read. */
export const listOutbox = () => api.get<OutboxList>('/outbox', { limit: 200 });

export const outboxQueryOptions = () =>
  queryOptions({ queryKey: ['outbox'], queryFn: listOutbox, staleTime: 0, refetchOnWindowFocus: true });

export const useOutbox = () => useQuery(outboxQueryOptions());
