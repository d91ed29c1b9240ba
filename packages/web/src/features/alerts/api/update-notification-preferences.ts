import type { NotificationPreferences, NotificationPreferencesAnswer } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { NOTIFICATION_PREFERENCES_KEY } from './get-notification-preferences.ts';

/** Replaces the user's preferences whole; the answer is what is now stored. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationPreferences) =>
      api.put<NotificationPreferencesAnswer>('/notifications/preferences', input),
    onSuccess: (answer) => queryClient.setQueryData(NOTIFICATION_PREFERENCES_KEY, answer),
  });
}
