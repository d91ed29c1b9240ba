/**
 * The components customers lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { customerColumns } from './components/customer-columns.tsx';
export { CustomersLiveSync } from './live/CustomersLiveSync.tsx';
