import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zonePath, type ZoneRef } from './get-zone.ts';

/** spec §5: the water point's label, typed by the user, confirms the deletion. */
export const deleteWaterPoint = (ref: ZoneRef, waterPointId: string, confirmName: string) =>
  api.delete<void>(`${zonePath(ref)}/water_points/${waterPointId}/delete`, { confirm_name: confirmName });

export function useDeleteWaterPoint(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName: string }) =>
      deleteWaterPoint(ref, id, confirmName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
