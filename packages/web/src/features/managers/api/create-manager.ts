import type { EndUserCreateInput, ManagerCreateInput, SiteManagerCreateInput, User } from '@flowbox/shared';

type CreateInput = ManagerCreateInput | SiteManagerCreateInput | EndUserCreateInput;
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { familyKey, familyPath, type ManagerFamily } from '../family.ts';

/** The new manager receives an invitation email with a link to choose a password. */
export const createManager = (family: ManagerFamily, input: CreateInput) =>
  api.post<User>(`${familyPath(family)}/create`, input);

export function useCreateManager(family: ManagerFamily) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateInput) => createManager(family, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: familyKey(family) }),
  });
}
