/** What the rest of the server uses of the auth domain (docs/architecture.md). */
export { hashPassword } from './passwords.ts';
export { TokenSigner } from './tokens.ts';
export { sessionCacheMetrics } from './metrics.ts';
export type { AccessClaims } from './tokens.ts';
export { LIVE_TICKET_TTL_S } from './live-tickets.ts';
