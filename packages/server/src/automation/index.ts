export type { AutomationReading } from './automation.service.ts';
export { assertZoneNotLocked, lockedZoneGuard } from './lock.ts';
export { isZoneLocked, isZoneLockedAt } from './automation.repo.ts';
export { alertsNotWired, type AutomationAlert, type RaiseAlert } from './alerting.ts';
