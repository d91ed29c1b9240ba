/** What the rest of the server uses of the buildings domain (docs/architecture.md). */
export { findBuildingRow, findSiteRow, requireBuildingRow } from './buildings.repo.ts';
export { findFloor } from './floors.repo.ts';
