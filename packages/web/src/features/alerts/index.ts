export { alertCountQueryOptions, alertsQueryOptions, useAlertCount } from './api/alerts.ts';
export { AlertCountBadge } from './components/AlertCountBadge.tsx';
export { AlertsLiveSync } from './components/AlertsLiveSync.tsx';
export { OpenAlertsCard } from './components/OpenAlertsCard.tsx';
export { useAlerts } from './api/alerts.ts';
