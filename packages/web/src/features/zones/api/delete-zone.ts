import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zoneKey, zonePath, type ZoneRef } from './get-zone.ts';

/** spec §5: the zone's name, typed by the user, confirms the deletion; its water points go with it. */
export const deleteZone = (ref: ZoneRef, confirmName: string) =>
  api.delete<void>(`${zonePath(ref)}/delete`, { confirm_name: confirmName });

export function useDeleteZone(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => deleteZone(ref, confirmName),
    onSuccess: () => {
      // Not refetched: the zone is gone and its screens are being left.
      queryClient.removeQueries({ queryKey: zoneKey(ref) });
      return queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] });
    },
  });
}
