export { AlertSettingsPage } from './components/AlertSettingsPage.tsx';
export { AlertsPage } from './components/AlertsPage.tsx';
export { ResidentAlertsPage } from './components/ResidentAlertsPage.tsx';
