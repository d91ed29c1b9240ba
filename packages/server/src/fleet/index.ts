export { fleetRoutes } from './fleet.routes.ts';
export { FleetService } from './fleet.service.ts';
