export { PricingPlanAddPage } from './components/PricingPlanAddPage.tsx';
export { PricingPlanEditPage } from './components/PricingPlanEditPage.tsx';
export { PricingPlansPage } from './components/PricingPlansPage.tsx';
export { SubscriptionsPage } from './components/SubscriptionsPage.tsx';
export { ZoneSubscriptionPage } from './components/ZoneSubscriptionPage.tsx';
