export { useZoneSubscription } from './api/get-zone-subscription.ts';
