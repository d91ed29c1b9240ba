import type { Rollout, RolloutAction } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';
import { rolloutKey } from './get-rollout.ts';

/** Pause, resume or cancel (docs/firmware.md "User controls"); the answer is the rollout as it is now. */
export const runRolloutAction = (rolloutId: string, action: RolloutAction) =>
  api.post<Rollout>(`/firmware/rollouts/${rolloutId}/${action}`);

export function useRolloutAction(rolloutId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: RolloutAction) => runRolloutAction(rolloutId, action),
    onSuccess: (rollout) => {
      queryClient.setQueryData([...rolloutKey(rolloutId), 'info'], rollout);
      return queryClient.invalidateQueries({ queryKey: FIRMWARE_KEY });
    },
  });
}
