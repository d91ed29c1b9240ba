/** What other features and the router use of the dashboard (its zones directory query, its data read early). */
export { useCustomerZones } from './api/list-customer-zones.ts';
export { prefetchDashboard } from './prefetch.ts';
