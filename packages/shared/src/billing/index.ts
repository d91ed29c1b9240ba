export * from './decimal.ts';
export * from './units.ts';
export * from './tiers.ts';
export * from './plans.ts';
export * from './subscriptions.ts';
export * from './periods.ts';
