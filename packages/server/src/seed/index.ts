/** What the rest of the server uses of the seed domain (docs/architecture.md). */
export {
  DEMO_ACCOUNTS,
  DEMO_FLEET_ZONES,
  DEMO_HISTORY_MONTHS,
  DEMO_PASSWORD,
  demoHistoryStart,
  ensureAdmin,
  seedDemo,
} from './seed.ts';
