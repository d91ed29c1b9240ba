/** The maps (docs/maps.md): fields that place a record; Leaflet itself loads only with a map. */
export { CoordinateFields, coordinateValue } from './CoordinateFields.tsx';
