import type { MapSettings } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** The map's tiles and credit (docs/maps.md): every map of the app draws with them. */
export const useMapSettings = () =>
  useQuery({
    queryKey: ['map', 'settings'],
    queryFn: () => api.get<MapSettings>('/map/settings'),
    staleTime: Infinity,
  });
