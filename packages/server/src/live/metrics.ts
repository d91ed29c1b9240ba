import type { InstanceMetrics } from '../http/metrics.ts';
import type { LiveHub } from './live.ts';

/** Live update streams (server-sent events) open on this instance. */
export function liveMetrics(metrics: InstanceMetrics, hub: LiveHub): void {
  metrics.gaugeFrom('live_connections', 'Live update streams (server-sent events) open now', [], () => [
    { value: hub.listenerCount },
  ]);
}

/** A cache's lookups (live/heard-cache.ts): answered from this instance's memory, or from the database. */
export function heardCacheMetrics(
  metrics: InstanceMetrics,
  name: string,
  help: string,
  cache: { hits: number; misses: number },
): void {
  metrics.counterFrom(name, help, ['source'], () => [
    { labels: { source: 'cache' }, value: cache.hits },
    { labels: { source: 'database' }, value: cache.misses },
  ]);
}
