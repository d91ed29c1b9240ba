/** What the rest of the server uses of the demo domain (docs/architecture.md). */
export { startDemoFleet, type DemoFleet } from './fleet.ts';
