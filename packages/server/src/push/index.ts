/** The push module's public face (docs/push.md): what app.ts takes besides its services and routes. */
export { pushMetrics } from './metrics.ts';
/** What other domains read of it: when each alert's first notification went. */
export { firstPushesOfAlerts } from './push.repo.ts';
