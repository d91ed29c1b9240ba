import type { Customer } from '@flowbox/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { CUSTOMERS_KEY } from './list-customers.ts';

export const getCustomer = (customerId: string) => api.get<Customer>(`/customers/${customerId}/info`);

export const customerQueryOptions = (customerId: string) =>
  queryOptions({ queryKey: [...CUSTOMERS_KEY, 'info', customerId], queryFn: () => getCustomer(customerId) });

export const useCustomer = (customerId: string, options: { enabled?: boolean } = {}) =>
  useQuery({ ...customerQueryOptions(customerId), enabled: options.enabled ?? true });
