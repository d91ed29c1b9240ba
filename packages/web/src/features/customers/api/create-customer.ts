import type { Customer, CustomerCreateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CUSTOMERS_KEY } from './list-customers.ts';

export const createCustomer = (input: CustomerCreateInput) => api.post<Customer>('/customers/create', input);

export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCustomer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY }),
  });
}
