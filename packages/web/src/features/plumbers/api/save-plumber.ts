import type { Plumber, PlumberCreateInput, PlumberUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { plumbersKey } from './keys.ts';

/** Creates a plumber, or updates the one named by `id`. */
export function useSavePlumber(id?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PlumberCreateInput | PlumberUpdateInput) =>
      id ? api.put<Plumber>(`/plumbers/${id}/update`, input) : api.post<Plumber>('/plumbers/create', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: plumbersKey }),
  });
}
