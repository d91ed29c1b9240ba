import type { PeopleList, PeopleRoleName } from '@flowbox/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type PeopleQuery = { search?: string; role?: PeopleRoleName; limit: number; offset: number };

/** The people of the caller's scope, one page (`GET /v1/users/list`, issue 18). */
export const peopleQueryOptions = (query: PeopleQuery) =>
  queryOptions({
    queryKey: ['users', 'list', query],
    queryFn: () =>
      api.get<PeopleList>('/users/list', {
        limit: query.limit,
        offset: query.offset,
        ...(query.search ? { search: query.search } : {}),
        ...(query.role ? { role: query.role } : {}),
      }),
    placeholderData: keepPreviousData,
  });

export const usePeople = (query: PeopleQuery) => useQuery(peopleQueryOptions(query));
