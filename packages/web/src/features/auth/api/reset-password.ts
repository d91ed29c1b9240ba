import type { MessageAnswer, TokenPasswordInput } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const resetPassword = (input: TokenPasswordInput) =>
  api.post<MessageAnswer>('/users/reset_password', input);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
