import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { familyKey, familyPath, type ManagerFamily } from '../family.ts';

/** spec §5: confirmed by the manager's "firstname lastname", typed by the user. */
export const deleteManager = (family: ManagerFamily, managerId: string, confirmName: string) =>
  api.delete<void>(`${familyPath(family)}/${managerId}/delete`, { confirm_name: confirmName });

export function useDeleteManager(family: ManagerFamily) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ managerId, confirmName }: { managerId: string; confirmName: string }) =>
      deleteManager(family, managerId, confirmName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKey(family) }),
  });
}
