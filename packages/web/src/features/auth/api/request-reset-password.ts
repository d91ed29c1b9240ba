import type { MessageAnswer } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Always the same answer, whether or not the email has an account. */
export const requestResetPassword = (input: { email: string }) =>
  api.post<MessageAnswer>('/users/request_reset_password', input);

export const useRequestResetPassword = () => useMutation({ mutationFn: requestResetPassword });
