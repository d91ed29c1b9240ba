import type { Plumber } from '@flowbox/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plumbersKey } from './keys.ts';

export type PlumberList = { items: Plumber[]; total: number };
export type PlumberFilters = {
  search?: string;
  speciality?: string;
  owner?: string;
  located?: 'true';
  limit: number;
  offset: number;
};

export const usePlumbers = (filters: PlumberFilters) =>
  useQuery({
    queryKey: [...plumbersKey, 'list', filters],
    queryFn: () =>
      api.get<PlumberList>('/plumbers/list', {
        search: filters.search || undefined,
        speciality: filters.speciality || undefined,
        owner: filters.owner || undefined,
        located: filters.located,
        limit: filters.limit,
        offset: filters.offset,
      }),
    placeholderData: keepPreviousData,
  });
