import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxKey, flowboxPath, type FlowboxRef } from './get-flowbox.ts';
import { flowboxesKey } from '../../zones/index.ts';

/** Unpairing removes a paired flowbox from its zone; its credentials stop working at once. */
export const unpairFlowbox = (ref: FlowboxRef) => api.post<void>(`${flowboxPath(ref)}/unpair`);

export function useUnpairFlowbox(ref: FlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unpairFlowbox(ref),
    onSuccess: () => {
      // Gone: its own queries are dropped rather than refetched into a 404.
      queryClient.removeQueries({ queryKey: flowboxKey(ref) });
      return queryClient.invalidateQueries({ queryKey: flowboxesKey(ref) });
    },
  });
}
