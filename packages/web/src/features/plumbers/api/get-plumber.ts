import type { Plumber } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plumbersKey } from './keys.ts';

export const usePlumber = (id: string) =>
  useQuery({
    queryKey: [...plumbersKey, 'one', id],
    queryFn: () => api.get<Plumber>(`/plumbers/${id}/info`),
  });
