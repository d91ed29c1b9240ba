import type { AlertCategory, AlertCategorySetting, AlertCategorySettingUpdate } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { ALERTS_KEY } from './keys.ts';

export function useUpdateAlertSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ category, input }: { category: AlertCategory; input: AlertCategorySettingUpdate }) =>
      api.put<AlertCategorySetting>(`/alerts/settings/${category}/update`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...ALERTS_KEY, 'settings'] }),
  });
}
