export { FlowboxLiveSync } from './live/FlowboxLiveSync.tsx';
export { LiveIndicator } from './live/LiveIndicator.tsx';
export { FlowboxesSection } from './components/FlowboxesSection.tsx';
export { ZoneValveCard } from './components/ZoneValveCard.tsx';
export { useFlowboxes } from './api/list-flowboxes.ts';
export { ValveControl } from './components/ValveControl.tsx';
export { useCommands } from './api/list-commands.ts';
