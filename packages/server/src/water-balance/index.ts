/** What the rest of the server uses of the water-balance domain (docs/architecture.md). */
export { WaterBalanceService, type BalanceAlerts } from './water-balance.service.ts';
export { waterBalanceRoutes } from './water-balance.routes.ts';
