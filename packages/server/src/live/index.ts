/** What the rest of the server uses of the live domain (docs/architecture.md). */
export { LIVE_CHANNEL, LiveHub, notifyLive, notifyLiveAll } from './live.ts';
