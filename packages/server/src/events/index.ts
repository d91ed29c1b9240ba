/** What the rest of the server uses of the events domain (docs/architecture.md). */
export {
  changedFieldsOf,
  countEventsByAction,
  recordChange,
  recordEvent,
  recordEvents,
} from './events.repo.ts';
