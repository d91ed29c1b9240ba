export { useCustomer } from './api/get-customer.ts';
export { customersQueryOptions, useCustomers } from './api/list-customers.ts';
export { customerColumns } from './components/customer-columns.tsx';
export { CustomersLiveSync } from './live/CustomersLiveSync.tsx';
