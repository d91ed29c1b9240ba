import type { Rollout, RolloutCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { FIRMWARE_KEY } from './keys.ts';

export const createRollout = (input: RolloutCreateInput) => api.post<Rollout>('/firmware/rollouts', input);

export function useCreateRollout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRollout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FIRMWARE_KEY }),
  });
}
