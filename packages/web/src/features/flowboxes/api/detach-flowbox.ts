import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { flowboxKey, flowboxPath, type FlowboxRef } from './get-flowbox.ts';
import { flowboxesKey } from '../../zones/index.ts';

/** spec §4: detaching needs confirmation, the serial typed; the server checks it again. */
export const detachFlowbox = (ref: FlowboxRef, confirmName: string) =>
  api.delete<void>(`${flowboxPath(ref)}/detach`, { confirm_name: confirmName });

export function useDetachFlowbox(ref: FlowboxRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => detachFlowbox(ref, confirmName),
    onSuccess: () => {
      // Gone: its own queries are dropped rather than refetched into a 404.
      queryClient.removeQueries({ queryKey: flowboxKey(ref) });
      return queryClient.invalidateQueries({ queryKey: flowboxesKey(ref) });
    },
  });
}
