import type { Flowbox, PairingPrepareInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ZoneRef } from '../../zones/index.ts';
import { flowboxesKey, flowboxesPath } from '../../zones/index.ts';
import { flowboxListKey } from '../../zones/index.ts';

/** spec §4 step 1/3 "prepare pairing": the zone expects this serial. */
export const preparePairing = (ref: ZoneRef, input: PairingPrepareInput) =>
  api.post<Flowbox>(`${flowboxesPath(ref)}/pair`, input);

export function usePreparePairing(ref: ZoneRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PairingPrepareInput) => preparePairing(ref, input),
    onSuccess: (flowbox) => {
      // In the zone's list at once: the pairing window follows the flowbox there, step by step.
      queryClient.setQueryData<{ items: Flowbox[] }>(
        flowboxListKey(ref),
        (list) => list && { items: [...list.items.filter((item) => item.id !== flowbox.id), flowbox] },
      );
      return queryClient.invalidateQueries({ queryKey: flowboxesKey(ref) });
    },
  });
}
