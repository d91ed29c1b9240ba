import type { NotificationPreferencesAnswer } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const NOTIFICATION_PREFERENCES_KEY = ['notification-preferences'] as const;

/** How the user is told of alerts (docs/alerts.md "How each person is told"). */
export const notificationPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: NOTIFICATION_PREFERENCES_KEY,
    queryFn: () => api.get<NotificationPreferencesAnswer>('/notifications/preferences'),
  });

export const useNotificationPreferences = () => useQuery(notificationPreferencesQueryOptions());
