import { useMutation } from '@tanstack/react-query';
import { api, endSession } from '../../../lib/api-client.ts';
import { refreshToken } from '../../../lib/tokens.ts';
import { unsubscribeThisBrowser } from '../../../lib/web-push.ts';

/**
 * The server ends the session; the cookies go whatever its answer (spec §4). This browser stops
 * receiving the user's notifications first, while the session may still say so (docs/push.md): a
 * failure there does not keep anyone signed in.
 */
export async function logout(): Promise<void> {
  await unsubscribeThisBrowser().catch(() => undefined);
  const token = refreshToken();
  try {
    await api.post<void>('/users/logout', token ? { refresh_token: token } : {});
  } finally {
    endSession('logout');
  }
}

export const useLogout = () => useMutation({ mutationFn: logout });
