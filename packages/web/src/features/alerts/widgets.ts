/**
 * The components alerts lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { AlertCountBadge } from './components/AlertCountBadge.tsx';
export { AlertsLiveSync } from './components/AlertsLiveSync.tsx';
export { OpenAlertsCard } from './components/OpenAlertsCard.tsx';
export { WasThisYou } from './components/WasThisYou.tsx';
