export { BuildingAddPage } from './components/BuildingAddPage.tsx';
export { BuildingEditPage } from './components/BuildingEditPage.tsx';
export { BuildingEventsPage } from './components/BuildingEventsPage.tsx';
export { BuildingOverviewPage } from './components/BuildingOverviewPage.tsx';
