import type { Registration } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { registrationsKey } from './list-registrations.ts';

export function useDecideRegistration(customerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'refuse' }) =>
      api.post<Registration>(`/customers/${customerId}/registrations/${id}/${decision}`, {}),
    onSuccess: () => client.invalidateQueries({ queryKey: registrationsKey(customerId) }),
  });
}
