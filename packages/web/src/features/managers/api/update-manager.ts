import type {
  EndUserUpdateInput,
  ManagerUpdateAnswer,
  ManagerUpdateInput,
  PlumberUserUpdateInput,
  SiteManagerUpdateInput,
} from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveTokens } from '../../../lib/tokens.ts';
import { ME_QUERY_KEY } from '../../auth/index.ts';
import { familyKey, familyPath, type ManagerFamily } from '../family.ts';

export type ManagerUpdate = {
  managerId: string;
  input: ManagerUpdateInput | SiteManagerUpdateInput | EndUserUpdateInput | PlumberUserUpdateInput;
};

/** spec §7: updating one's own record answers new tokens, which replace the session's. */
export async function updateManager(family: ManagerFamily, { managerId, input }: ManagerUpdate) {
  const answer = await api.put<ManagerUpdateAnswer>(`${familyPath(family)}/${managerId}/update`, input);
  if (answer.access_token && answer.refresh_token) {
    saveTokens({ access_token: answer.access_token, refresh_token: answer.refresh_token });
  }
  return answer;
}

export function useUpdateManager(family: ManagerFamily) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ManagerUpdate) => updateManager(family, update),
    onSuccess: (answer) => {
      if (answer.access_token) queryClient.setQueryData(ME_QUERY_KEY, answer.user);
      return queryClient.invalidateQueries({ queryKey: familyKey(family) });
    },
  });
}
