/** What the rest of the server uses of the billing domain (docs/architecture.md). */
export type { VersionWithRanges } from './plans.repo.ts';
export { hasSubscription, requirePremium, termsComing, versionInForce } from './zone-billing.ts';
