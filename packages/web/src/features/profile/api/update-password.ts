import type { MessageAnswer, UpdatePasswordInput } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** Other sessions of the user end; this one stays. */
export const updatePassword = (input: UpdatePasswordInput) =>
  api.put<MessageAnswer>('/users/update_password', input);

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
