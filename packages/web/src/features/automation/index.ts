export { automationKey } from './api/keys.ts';
export { useAutomation } from './api/get-automation.ts';
