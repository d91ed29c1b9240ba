import type { Automation } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { automationKey, automationPath } from './keys.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';

/** spec §4: leaving automatic closing, the zone's name typed. */
export function useExitAutomation(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) =>
      api.post<Automation>(`${automationPath(ref)}/exit`, { confirm_name: confirmName }),
    onSuccess: (automation) => queryClient.setQueryData(automationKey(ref), automation),
  });
}
