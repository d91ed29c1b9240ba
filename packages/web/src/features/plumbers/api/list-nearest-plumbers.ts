import type { NearestPlumbers } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plumbersKey } from './keys.ts';

export const useNearestPlumbers = (customerId: string, siteId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...plumbersKey, 'nearest', customerId, siteId],
    queryFn: () => api.get<NearestPlumbers>(`/customers/${customerId}/sites/${siteId}/plumbers/nearest`),
    enabled,
  });
