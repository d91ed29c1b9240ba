export { useCustomer } from './api/get-customer.ts';
export { customersQueryOptions, useCustomers } from './api/list-customers.ts';
