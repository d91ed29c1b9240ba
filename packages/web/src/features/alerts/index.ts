export { alertCountQueryOptions, useAlertCount } from './api/get-alert-count.ts';
export { alertsQueryOptions } from './api/list-alerts.ts';
export { useAlerts } from './api/list-alerts.ts';
