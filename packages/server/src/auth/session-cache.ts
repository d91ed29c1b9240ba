import type { Actor } from '../access/access.ts';
import type { UserRow } from '../users/index.ts';
import { HeardCache } from '../live/index.ts';
import type { AccessClaims } from './tokens.ts';

/** What a session's lookup answers: its actor, and the user's record and sites it was made of. */
export type SessionUser = { actor: Actor; user: UserRow; siteIds: string[] };

export const SESSION_CACHE = {
  /** Sessions kept; the least recently used goes first (an entry is a few kilobytes at most). */
  maxSessions: 10_000,
  /** Verified access tokens kept (a few hundred bytes each). */
  maxTokens: 20_000,
  /**
   * A second safety net behind the invalidations: an entry older than this is looked up again,
   * so even a lost notification the listening connection did not report is wrong for so long at
   * most. One lookup per active session in this time costs nothing.
   */
  ttlMs: 10_000,
};

type Entry = SessionUser & { userId: string };

/**
 * This instance's memory of verified access tokens and of their sessions' users, so that an
 * authenticated request costs neither a signature check (WebCrypto, ~10 % of a request) nor a
 * database round trip (docs/performance.md "API"). A token's check depends only on the token and
 * the clock, so it is kept until the token expires. A session's user is kept only while the
 * instance hears every change to users, their sites and their sessions (the `flowbox_auth`
 * notifications, drizzle/0014): the first change, or any doubt (the listening connection lost),
 * forgets it (live/heard-cache.ts). Rules in docs/decisions.md "Sessions cached per instance".
 */
export class SessionCache {
  private readonly tokens = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  private readonly sessions: HeardCache<Entry>;

  constructor(
    private readonly now: () => Date,
    private readonly limits = SESSION_CACHE,
  ) {
    this.sessions = new HeardCache(() => now().getTime(), { max: limits.maxSessions, ttlMs: limits.ttlMs });
  }

  /** Requests answered from the cache, and looked up (`/metrics`). */
  get hits(): number {
    return this.sessions.hits;
  }
  set hits(value: number) {
    this.sessions.hits = value;
  }
  get misses(): number {
    return this.sessions.misses;
  }
  set misses(value: number) {
    this.sessions.misses = value;
  }

  /** The claims of a token verified before, until its expiry. */
  claimsOf(token: string): AccessClaims | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (this.now().getTime() >= entry.expiresAt) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry.claims;
  }

  rememberToken(token: string, claims: AccessClaims, expiresAt: number): void {
    this.tokens.set(token, { claims, expiresAt });
    if (this.tokens.size > this.limits.maxTokens) this.tokens.delete(this.tokens.keys().next().value!);
  }

  /** The session's user as last looked up, if nothing may have changed it since. */
  sessionUser(claims: AccessClaims): SessionUser | undefined {
    const entry = this.sessions.get(claims.sessionId);
    return entry?.userId === claims.userId ? entry : undefined;
  }

  /** Taken before a lookup, given back with its answer to `rememberSession`. */
  get version(): number {
    return this.sessions.version;
  }

  /**
   * Keeps a lookup's answer, unless something was forgotten since it began (its answer may predate
   * that change) or the instance is not hearing the changes.
   */
  rememberSession(claims: AccessClaims, value: SessionUser, version: number): void {
    this.sessions.remember(claims.sessionId, { ...value, userId: claims.userId }, [claims.userId], version);
  }

  /** A change to this user, its sites or one of its sessions. */
  forgetUser(userId: string): void {
    this.sessions.forget(userId);
  }

  /** Whether every change is heard (the listening connection is up); either way, forgets the sessions. */
  trust(hearing: boolean): void {
    this.sessions.trust(hearing);
  }

  get size(): number {
    return this.sessions.size;
  }
}
