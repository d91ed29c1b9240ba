/** Leak analytics (issue 29, docs/automation.md "Leak analytics"): their upkeep and the zones' summary. */
export { LeakUpkeep, LEAK_WINDOW_MS, type ZonePrices } from './leaks.upkeep.ts';
export { leakSummary } from './leaks.repo.ts';
