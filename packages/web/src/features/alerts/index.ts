export { alertCountQueryOptions, alertsQueryOptions, useAlertCount } from './api/alerts.ts';
export { useAlerts } from './api/alerts.ts';
