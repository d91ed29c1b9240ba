import { useMutation } from '@tanstack/react-query';
import { api, endSession } from '../../../lib/api-client.ts';
import { refreshToken } from '../../../lib/tokens.ts';

/** The server ends the session; the cookies go whatever its answer (spec §4). */
export async function logout(): Promise<void> {
  const token = refreshToken();
  try {
    await api.post<void>('/users/logout', token ? { refresh_token: token } : {});
  } finally {
    endSession('logout');
  }
}

export const useLogout = () => useMutation({ mutationFn: logout });
