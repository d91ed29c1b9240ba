import type { Customer } from '@flowbox/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type CustomersQuery = { search?: string; limit: number; offset: number };
export type CustomerList = { items: Customer[]; total: number };

export const CUSTOMERS_KEY = ['customers'] as const;

export const listCustomers = (query: CustomersQuery) => api.get<CustomerList>('/customers/list', query);

export const customersQueryOptions = (query: CustomersQuery) =>
  queryOptions({
    queryKey: [...CUSTOMERS_KEY, 'list', query],
    queryFn: () => listCustomers(query),
    placeholderData: keepPreviousData,
  });

export const useCustomers = (query: CustomersQuery) => useQuery(customersQueryOptions(query));
