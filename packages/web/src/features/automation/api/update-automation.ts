import type { AutomaticClosingSettingsInput, Automation } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationKey, automationPath, type AutomationZoneRef } from './keys.ts';

export function useUpdateAutomation(ref: AutomationZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AutomaticClosingSettingsInput) =>
      api.put<Automation>(`${automationPath(ref)}/update`, input),
    onSuccess: (automation) => queryClient.setQueryData(automationKey(ref), automation),
  });
}
