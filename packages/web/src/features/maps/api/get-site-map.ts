import type { SiteMap } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const useSiteMap = () =>
  useQuery({ queryKey: ['map', 'sites'], queryFn: () => api.get<SiteMap>('/map/sites') });
