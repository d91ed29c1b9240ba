/** What the rest of the server uses of the customers domain (docs/architecture.md). */
export { findCustomer, requireCustomerRow } from './customers.repo.ts';
