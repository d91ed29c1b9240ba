/** What the rest of the server uses of the auth domain (docs/architecture.md). */
export { hashPassword } from './passwords.ts';
export { TokenSigner } from './tokens.ts';
export { sessionCacheMetrics } from './metrics.ts';
export type { AccessClaims } from './tokens.ts';
