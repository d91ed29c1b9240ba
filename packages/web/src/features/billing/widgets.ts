/**
 * The components billing lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { ComingPrice, PlanPrices } from './components/PlanPrices.tsx';
