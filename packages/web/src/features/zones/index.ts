export { useCreateWaterPoint } from './api/create-water-point.ts';
export { useCreateZone } from './api/create-zone.ts';
export { useZone, zoneKey, type ZoneRef } from './api/get-zone.ts';
export { Badge } from './components/Badge.tsx';
export { useZoneCrumbs } from './components/useZoneCrumbs.ts';
export { useZoneRef } from './components/useZoneRef.ts';
export { useWaterPoints } from './api/list-water-points.ts';
export {
  waterPointFormValues,
  zoneFormValues,
  type WaterPointValues,
  type ZoneValues,
} from './form-values.ts';
export { WaterPointAddPage } from './components/WaterPointAddPage.tsx';
export { WaterPointForm, type WaterPointFormProps } from './components/WaterPointForm.tsx';
export { WaterPointsPage } from './components/WaterPointsPage.tsx';
export { ZoneAddPage } from './components/ZoneAddPage.tsx';
export { ZoneEditPage } from './components/ZoneEditPage.tsx';
export { ZoneEventsPage } from './components/ZoneEventsPage.tsx';
export { ZoneForm, type ZoneBuilding, type ZoneFormProps } from './components/ZoneForm.tsx';
export { ZoneOverviewPage } from './components/ZoneOverviewPage.tsx';
