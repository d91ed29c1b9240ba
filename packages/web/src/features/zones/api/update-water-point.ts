import type { WaterPoint, WaterPointUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zonePath, type ZoneRef } from './get-zone.ts';

export const updateWaterPoint = (ref: ZoneRef, waterPointId: string, input: WaterPointUpdateInput) =>
  api.put<WaterPoint>(`${zonePath(ref)}/water_points/${waterPointId}/update`, input);

export function useUpdateWaterPoint(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: WaterPointUpdateInput }) =>
      updateWaterPoint(ref, id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
