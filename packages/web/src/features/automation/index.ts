export { AutomationCard, AutomationLockedBanner } from './components/AutomationCard.tsx';
export { AutomationLiveSync } from './components/AutomationLiveSync.tsx';
export { automationKey, useAutomation, type AutomationZoneRef } from './api/automation.ts';
export { BacktestPanel } from './components/BacktestPanel.tsx';
