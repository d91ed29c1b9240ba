import type { InstanceMetrics } from '../http/metrics.ts';
import type { LiveHub } from './live.ts';

/** Live update streams (server-sent events) open on this instance. */
export function liveMetrics(metrics: InstanceMetrics, hub: LiveHub): void {
  metrics.gaugeFrom('live_connections', 'Live update streams (server-sent events) open now', [], () => [
    { value: hub.listenerCount },
  ]);
}
