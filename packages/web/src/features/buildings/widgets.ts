/**
 * The components buildings lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { BuildingForm } from './components/BuildingForm.tsx';
export { BuildingsSection, BuildingsTable } from './components/BuildingsSection.tsx';
export { FloorForm } from './components/FloorForm.tsx';
export { FloorsSection } from './components/FloorsSection.tsx';
