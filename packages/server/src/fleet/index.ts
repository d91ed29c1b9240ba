export { fleetRoutes } from './fleet.routes.ts';
export { FleetService } from './fleet.service.ts';
export { openAlertCountsJob } from './open-alerts-job.ts';
