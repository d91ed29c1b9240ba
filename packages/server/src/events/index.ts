/** What the rest of the server uses of the events domain (docs/architecture.md). */
export {
  changedFieldsOf,
  countEventsByAction,
  latestZoneEvents,
  recordChange,
  recordEvent,
  recordEvents,
} from './events.repo.ts';
export type { LoggedEvent } from './events.repo.ts';
