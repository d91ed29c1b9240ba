/** What the rest of the server uses of the live domain (docs/architecture.md). */
export { LiveHub } from './live.ts';
export { heardCacheMetrics, liveMetrics } from './metrics.ts';
export {
  forgetOnNotify,
  HeardCache,
  heardEverything,
  type HeardCacheLimits,
  type Notifications,
} from './heard-cache.ts';
export { LIVE_CHANNEL, notifyLive, notifyLiveAll } from './live.repo.ts';
export { LIVE_TICKET_TTL_S, type LiveSession } from './streams.ts';
