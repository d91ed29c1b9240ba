import type { Zone, ZoneUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { zonePath, type ZoneRef } from './get-zone.ts';

/** Sends only the fields to change: the activity log lists them as the changed fields. */
export const updateZone = (ref: ZoneRef, input: ZoneUpdateInput) =>
  api.put<Zone>(`${zonePath(ref)}/update`, input);

export function useUpdateZone(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ZoneUpdateInput) => updateZone(ref, input),
    // The building's zone list shows the zone's name and profile; the logs gain a line.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['customers', ref.customerId] }),
  });
}
