/**
 * The components automation lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { AutomationCard, AutomationLockedBanner } from './components/AutomationCard.tsx';
export { AutomationLiveSync } from './components/AutomationLiveSync.tsx';
export { BacktestPanel } from './components/BacktestPanel.tsx';
export { AwayModeCard } from './components/AwayModeCard.tsx';
