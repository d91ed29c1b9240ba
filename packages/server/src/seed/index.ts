/** What the rest of the server uses of the seed domain (docs/architecture.md). */
export { DEMO_ACCOUNTS, DEMO_FLEET_ZONES, DEMO_PASSWORD, ensureAdmin, seedDemo } from './seed.ts';
