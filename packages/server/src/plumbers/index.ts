/** What the rest of the server uses of the plumbers domain (docs/architecture.md). */
export { DEFAULT_MAP_TILE_URL, PlumbersService } from './plumbers.service.ts';
export { plumbersRoutes } from './plumbers.routes.ts';
