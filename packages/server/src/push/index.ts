/** The push module's public face (docs/push.md): what app.ts takes besides its services and routes. */
export { pushMetrics } from './metrics.ts';
