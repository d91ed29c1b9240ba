export { useZoneSubscription } from './api/get-zone-subscription.ts';
export { ComingPrice, PlanPrices } from './components/PlanPrices.tsx';
