/** Leak analytics (issue 29, docs/automation.md "Leak analytics"): their upkeep, service and routes. */
export { LeakUpkeep, LEAK_WINDOW_MS, type ZonePrices } from './leaks.upkeep.ts';
export { LeaksService } from './leaks.service.ts';
export { leaksRoutes } from './leaks.routes.ts';
export { leakSummary } from './leaks.repo.ts';
