/** What the rest of the server uses of the zones domain (docs/architecture.md). */
export { findZoneRow, mirrorDeviceState, type ZoneRow } from './zones.repo.ts';
export { zoneOverviewCache } from './overview-cache.ts';
