import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxKey, flowboxPath, type FlowboxRef } from './get-flowbox.ts';
import { flowboxesKey } from '../../zones/index.ts';

/** Refusing pairing removes the flowbox that announced itself; the device is told. */
export const refusePairing = (ref: FlowboxRef) => api.post<void>(`${flowboxPath(ref)}/refuse`);

export function useRefusePairing(ref: FlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => refusePairing(ref),
    onSuccess: () => {
      // Gone: its own queries are dropped rather than refetched into a 404.
      queryClient.removeQueries({ queryKey: flowboxKey(ref) });
      return queryClient.invalidateQueries({ queryKey: flowboxesKey(ref) });
    },
  });
}
