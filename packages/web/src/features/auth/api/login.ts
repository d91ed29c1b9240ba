import type { LoginInput, Tokens } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveTokens } from '../../../lib/tokens.ts';
import { getMe, ME_QUERY_KEY } from './get-me.ts';

/** spec §4: authenticated once login returns tokens and the current user is loaded. */
export async function login(input: LoginInput) {
  const tokens = await api.post<Tokens>('/users/token', input);
  saveTokens(tokens);
  return getMe();
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, user);
    },
  });
}
