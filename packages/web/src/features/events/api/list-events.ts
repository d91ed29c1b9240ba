import type { EventsPage, EventsQuery } from '@flowbox/shared';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { eventsKey, eventsPath, type EventsScope } from '../scope.ts';

/** The facet and date filters of a log; the cursor and page size are the query's own business. */
export type EventsFilters = Omit<EventsQuery, 'cursor' | 'limit'>;

const PAGE_SIZE = 30;

export const listEvents = (scope: EventsScope, filters: EventsFilters, cursor?: string) =>
  api.get<EventsPage>(eventsPath(scope), { ...filters, cursor, limit: PAGE_SIZE });

/** Newest first; each page's `next_cursor` (keyset) fetches the older ones, null at the end. */
export const eventsQueryOptions = (scope: EventsScope, filters: EventsFilters) =>
  infiniteQueryOptions({
    queryKey: [...eventsKey(scope), filters],
    queryFn: ({ pageParam }) => listEvents(scope, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    // A log is read to see what just happened.
    staleTime: 0,
  });

export const useEvents = (scope: EventsScope, filters: EventsFilters) =>
  useInfiniteQuery(eventsQueryOptions(scope, filters));
