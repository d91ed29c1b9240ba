export { ActivityLog } from './components/ActivityLog.tsx';
export type { EventsScope } from './scope.ts';
