import type { AlertCount } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

export const alertCountQueryOptions = () =>
  queryOptions({ queryKey: [...ALERTS_KEY, 'count'], queryFn: () => api.get<AlertCount>('/alerts/count') });

export const useAlertCount = () => useQuery(alertCountQueryOptions());
