import type { Customer, CustomerUpdateInput } from '@flowbox/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CUSTOMERS_KEY } from './list-customers.ts';

export const updateCustomer = (customerId: string, input: CustomerUpdateInput) =>
  api.put<Customer>(`/customers/${customerId}/update`, input);

export function useUpdateCustomer(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerUpdateInput) => updateCustomer(customerId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY }),
  });
}
