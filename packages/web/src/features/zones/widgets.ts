/**
 * The components zones lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { WaterPointForm } from './components/WaterPointForm.tsx';
export { ZoneForm } from './components/ZoneForm.tsx';
export { ZoneChecklist } from './components/ZoneChecklist.tsx';
