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
export type { WaterPointFormProps } from './components/WaterPointForm.tsx';
export type { ZoneBuilding, ZoneFormProps } from './components/ZoneForm.tsx';
export { useUpdateZone } from './api/update-zone.ts';
export { useZoneReadiness, ZONE_SECTION, type ZoneReadiness } from './components/useZoneReadiness.ts';
export { flowboxesKey, flowboxesPath, flowboxListKey, useFlowboxes } from './api/list-flowboxes.ts';
export type { ZoneChecklistProps } from './components/ZoneChecklist.tsx';
