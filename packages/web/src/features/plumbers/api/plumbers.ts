import type {
  MapSettings,
  NearestPlumbers,
  Plumber,
  PlumberCreateInput,
  PlumberUpdateInput,
  SiteMap,
} from '@flowbox/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type PlumberList = { items: Plumber[]; total: number };
export type PlumberFilters = {
  search?: string;
  speciality?: string;
  owner?: string;
  located?: 'true';
  limit: number;
  offset: number;
};

const plumbersKey = ['plumbers'] as const;

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

export const usePlumber = (id: string) =>
  useQuery({
    queryKey: [...plumbersKey, 'one', id],
    queryFn: () => api.get<Plumber>(`/plumbers/${id}/info`),
  });

export function useSavePlumber(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlumberCreateInput | PlumberUpdateInput) =>
      id ? api.put<Plumber>(`/plumbers/${id}/update`, input) : api.post<Plumber>('/plumbers/create', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plumbersKey }),
  });
}

export function useDeletePlumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName: string }) =>
      api.delete<null>(`/plumbers/${id}/delete`, { confirm_name: confirmName }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plumbersKey }),
  });
}

export const useNearestPlumbers = (customerId: string, siteId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...plumbersKey, 'nearest', customerId, siteId],
    queryFn: () => api.get<NearestPlumbers>(`/customers/${customerId}/sites/${siteId}/plumbers/nearest`),
    enabled,
  });

export const useMapSettings = () =>
  useQuery({
    queryKey: ['map', 'settings'],
    queryFn: () => api.get<MapSettings>('/map/settings'),
    staleTime: Infinity,
  });

export const useSiteMap = () =>
  useQuery({ queryKey: ['map', 'sites'], queryFn: () => api.get<SiteMap>('/map/sites') });
