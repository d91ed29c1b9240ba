export { WaterPointAddPage } from './components/WaterPointAddPage.tsx';
export { WaterPointsPage } from './components/WaterPointsPage.tsx';
export { ZoneAddPage } from './components/ZoneAddPage.tsx';
export { ZoneEditPage } from './components/ZoneEditPage.tsx';
export { ZoneOverviewPage } from './components/ZoneOverviewPage.tsx';
