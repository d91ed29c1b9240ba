import type { AlertCategorySetting } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

export const alertSettingsQueryOptions = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'settings'],
    queryFn: () => api.get<{ items: AlertCategorySetting[] }>('/alerts/settings/list'),
  });

export const useAlertSettings = () => useQuery(alertSettingsQueryOptions());
