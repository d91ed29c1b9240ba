export { CustomerAddPage } from './components/CustomerAddPage.tsx';
export { CustomerEditPage } from './components/CustomerEditPage.tsx';
export { CustomerOverviewPage } from './components/CustomerOverviewPage.tsx';
export { CustomersPage } from './components/CustomersPage.tsx';
export { CUSTOMER_MANAGERS } from './customer-managers.ts';
