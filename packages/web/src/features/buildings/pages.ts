export { BuildingAddPage } from './components/BuildingAddPage.tsx';
export { BuildingEditPage } from './components/BuildingEditPage.tsx';
export { BuildingOverviewPage } from './components/BuildingOverviewPage.tsx';
