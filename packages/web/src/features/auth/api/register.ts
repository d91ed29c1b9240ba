import type { MessageAnswer, RegisterInput } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const register = (input: RegisterInput) => api.post<MessageAnswer>('/users/register', input);

export const useRegister = () => useMutation({ mutationFn: register });

/** The registration's emailed link, and the password its opener chooses (docs/permissions.md "Registration"). */
export const confirmRegistration = (token: string, password: string) =>
  api.post<MessageAnswer & { status: 'pending' | 'approved' }>('/users/register/confirm', {
    token,
    password,
  });
