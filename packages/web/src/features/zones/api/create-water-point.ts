import type { WaterPoint, WaterPointCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zonePath, type ZoneRef } from './get-zone.ts';

export const createWaterPoint = (ref: ZoneRef, input: WaterPointCreateInput) =>
  api.post<WaterPoint>(`${zonePath(ref)}/water_points/create`, input);

export function useCreateWaterPoint(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WaterPointCreateInput) => createWaterPoint(ref, input),
    // The zone's water point count and the activity logs change too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
