import type { InstanceMetrics } from '../http/metrics.ts';
import { heardCacheMetrics } from '../live/index.ts';
import type { SessionCache } from './session-cache.ts';

/** Authenticated requests: answered from this instance's sessions' cache, or looked up in the database. */
export function sessionCacheMetrics(metrics: InstanceMetrics, cache: SessionCache): void {
  heardCacheMetrics(
    metrics,
    'auth_session_lookups_total',
    "Authenticated requests by where the session's user came from: this instance's cache, or the database",
    cache,
  );
}
