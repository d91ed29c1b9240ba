export { useCreateWaterPoint } from './api/create-water-point.ts';
export { useCreateZone } from './api/create-zone.ts';
export { useZone, zoneKey, type ZoneRef } from './api/get-zone.ts';
export { useZoneCrumbs } from './components/useZoneCrumbs.ts';
export { useZoneRef } from './components/useZoneRef.ts';
export { useWaterPoints } from './api/list-water-points.ts';
export {
  waterPointFormValues,
  zoneFormValues,
  type WaterPointValues,
  type ZoneValues,
} from './form-values.ts';
export { WaterPointForm, type WaterPointFormProps } from './components/WaterPointForm.tsx';
export { ZoneForm, type ZoneBuilding, type ZoneFormProps } from './components/ZoneForm.tsx';
export { ZONE_SECTION, ZoneChecklist, useZoneReadiness } from './components/ZoneChecklist.tsx';
export { useUpdateZone } from './api/update-zone.ts';
