import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plumbersKey } from './keys.ts';

export function useDeletePlumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName: string }) =>
      api.delete<null>(`/plumbers/${id}/delete`, { confirm_name: confirmName }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plumbersKey }),
  });
}
