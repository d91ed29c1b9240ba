/** What the rest of the server uses of the billing domain (docs/architecture.md). */
export { insertPlan, insertVersion, type VersionWithRanges } from './plans.repo.ts';
export { insertSubscription } from './subscriptions.repo.ts';
export { hasSubscription, requirePremium, termsComing, versionInForce } from './zone-billing.ts';
