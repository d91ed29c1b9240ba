export { automationKey, useAutomation, type AutomationZoneRef } from './api/automation.ts';
