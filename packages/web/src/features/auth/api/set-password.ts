import type { PasswordSet, TokenPasswordInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveTokens } from '../../../lib/tokens.ts';
import { getMe, ME_QUERY_KEY } from './get-me.ts';

/**
 * Chooses the first password from an invitation link. The answer opens the new user's session, as a
 * login does: the user is signed in with the password just chosen, without typing it again.
 */
export async function setPassword(input: TokenPasswordInput) {
  const { message, ...tokens } = await api.post<PasswordSet>('/users/set_password', input);
  saveTokens(tokens);
  return { message, user: await getMe() };
}

export function useSetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPassword,
    onSuccess: ({ user }) => {
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, user);
    },
  });
}
