import type { AutomaticClosingSettingsInput, Automation } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationKey, automationPath } from './keys.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

export function useUpdateAutomation(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AutomaticClosingSettingsInput) =>
      api.put<Automation>(`${automationPath(ref)}/update`, input),
    onSuccess: (automation) => queryClient.setQueryData(automationKey(ref), automation),
  });
}
