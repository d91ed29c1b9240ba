import type { AwayMode, AwayModeInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../../lib/zone-ref.ts';
import { awayModeKey, awayPath } from './get-away-mode.ts';

/** Sets the period (local dates and times of the building), or switches it off (`null`). */
export function useSaveAwayMode(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AwayModeInput | null) =>
      input
        ? api.put<AwayMode>(`${awayPath(ref)}/update`, input)
        : api.post<AwayMode>(`${awayPath(ref)}/clear`),
    onSuccess: (away) => queryClient.setQueryData(awayModeKey(ref), away),
  });
}
