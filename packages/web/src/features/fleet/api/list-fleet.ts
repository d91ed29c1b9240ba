import type { FleetPage, FleetQueryInput } from '@flowbox/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The list's filters and sort, as the address holds them (strings, as the API takes them). */
export type FleetFilters = Omit<FleetQueryInput, 'cursor' | 'limit'>;

export const FLEET_PAGE_SIZE = 50;

export const useFleetPage = (filters: FleetFilters, cursor: string | undefined) =>
  useQuery({
    queryKey: ['fleet', 'list', filters, cursor],
    queryFn: () =>
      api.get<FleetPage>('/fleet/list', {
        ...(filters as Record<string, string>),
        ...(cursor ? { cursor } : {}),
        limit: String(FLEET_PAGE_SIZE),
      }),
    placeholderData: keepPreviousData,
  });
