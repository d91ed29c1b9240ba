export { useAlertCount } from './api/alerts.ts';
export { AlertCountBadge } from './components/AlertCountBadge.tsx';
export { AlertSettingsPage } from './components/AlertSettingsPage.tsx';
export { AlertsLiveSync } from './components/AlertsLiveSync.tsx';
export { AlertsPage } from './components/AlertsPage.tsx';
export { OpenAlertsCard } from './components/OpenAlertsCard.tsx';
