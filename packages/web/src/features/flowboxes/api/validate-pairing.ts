import type { Flowbox } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxPath, type FlowboxRef } from './get-flowbox.ts';
import { flowboxesKey } from '../../zones/index.ts';

/** spec §4 step 3/3 "finalise pairing": the device that announced itself is accepted. */
export const validatePairing = (ref: FlowboxRef) => api.post<Flowbox>(`${flowboxPath(ref)}/validate`);

export function useValidatePairing(ref: FlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => validatePairing(ref),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowboxesKey(ref) }),
  });
}
