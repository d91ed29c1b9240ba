import type { MessageAnswer, TokenPasswordInput } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Chooses the first password from an invitation link. */
export const setPassword = (input: TokenPasswordInput) =>
  api.post<MessageAnswer>('/users/set_password', input);

export const useSetPassword = () => useMutation({ mutationFn: setPassword });
