export {
  AutomationService,
  SAFETY_CLOSE_TTL_S,
  SAFETY_CONFIRM_S,
  type AutomationReading,
} from './automation.service.ts';
export { automationRoutes } from './automation.routes.ts';
export { assertZoneNotLocked, lockedZoneGuard } from './lock.ts';
export { isZoneLocked, isZoneLockedAt } from './automation.repo.ts';
export { alertsNotWired, type AutomationAlert, type RaiseAlert } from './alerting.ts';
