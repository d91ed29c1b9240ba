/** What the rest of the server uses of the seed domain (docs/architecture.md). */
export { ensureAdmin } from './admin.ts';
export {
  DEMO_ACCOUNTS,
  DEMO_FLEET_ZONES,
  DEMO_HISTORY_MONTHS,
  DEMO_PASSWORD,
  demoHistoryStart,
  seedDemo,
} from './demo-data.ts';
