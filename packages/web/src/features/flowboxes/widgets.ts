/**
 * The components flowboxes lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { FlowboxLiveSync } from './live/FlowboxLiveSync.tsx';
export { LiveIndicator } from './live/LiveIndicator.tsx';
export { FlowboxesSection } from './components/FlowboxesSection.tsx';
export { ZoneValveCard } from './components/ZoneValveCard.tsx';
export { ValveControl } from './components/ValveControl.tsx';
