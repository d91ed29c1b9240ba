/** What the rest of the server uses of the live domain (docs/architecture.md). */
export { LiveHub } from './live.ts';
export { liveMetrics } from './metrics.ts';
export { LIVE_CHANNEL, notifyLive, notifyLiveAll } from './live.repo.ts';
