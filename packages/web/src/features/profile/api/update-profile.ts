import type { ManagerUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changeLanguage, isLanguage } from '../../../lib/i18n/index.ts';
import { ME_QUERY_KEY, useUser } from '../../auth/index.ts';
import { ownFamily, updateManager } from '../../managers/index.ts';

/**
 * spec §6: the profile is saved through the update endpoint of the user's own role; the answer
 * carries new tokens (saved by updateManager) and the language, which the UI follows.
 */
export function useUpdateProfile() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ManagerUpdateInput) => updateManager(ownFamily(user), { managerId: user.id, input }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(ME_QUERY_KEY, answer.user);
      if (isLanguage(answer.user.language)) await changeLanguage(answer.user.language);
    },
  });
}
