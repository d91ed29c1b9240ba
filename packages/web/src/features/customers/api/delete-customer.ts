import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CUSTOMERS_KEY } from './list-customers.ts';

/** spec §5: the customer's name, typed by the user, confirms the deletion (its sites and managers go too). */
export const deleteCustomer = (customerId: string, confirmName: string) =>
  api.delete<void>(`/customers/${customerId}/delete`, { confirm_name: confirmName });

export function useDeleteCustomer(customerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => deleteCustomer(customerId, confirmName),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...CUSTOMERS_KEY, 'info', customerId] });
      return queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY });
    },
  });
}
