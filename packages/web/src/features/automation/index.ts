export { automationKey, type AutomationZoneRef } from './api/keys.ts';
export { useAutomation } from './api/get-automation.ts';
