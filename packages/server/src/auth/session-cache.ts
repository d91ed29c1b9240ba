import type { Actor } from '../access/access.ts';
import type { UserRow } from '../users/index.ts';
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

type Entry = SessionUser & { userId: string; loadedAt: number };

/**
 * This instance's memory of verified access tokens and of their sessions' users, so that an
 * authenticated request costs neither a signature check (WebCrypto, ~10 % of a request) nor a
 * database round trip (docs/performance.md "API"). A token's check depends only on the token and
 * the clock, so it is kept until the token expires. A session's user is kept only while the
 * instance hears every change to users, their sites and their sessions (the `flowbox_auth`
 * notifications, drizzle/0014): the first change, or any doubt (the listening connection lost),
 * forgets it. Rules in docs/decisions.md "Sessions cached per instance".
 */
export class SessionCache {
  private readonly tokens = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  private readonly sessions = new Map<string, Entry>();
  /** Counts every forgetting: a lookup that began before one may have read what it forgot. */
  private generation = 0;
  private trusted = false;
  /** Requests answered from the cache, and looked up (`/metrics`). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly now: () => Date,
    private readonly limits = SESSION_CACHE,
  ) {}

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
    if (!entry || entry.userId !== claims.userId || !this.trusted) return undefined;
    if (this.now().getTime() - entry.loadedAt >= this.limits.ttlMs) {
      this.sessions.delete(claims.sessionId);
      return undefined;
    }
    // Least recently used first: a hit moves the entry to the end.
    this.sessions.delete(claims.sessionId);
    this.sessions.set(claims.sessionId, entry);
    return entry;
  }

  /** Taken before a lookup, given back with its answer to `rememberSession`. */
  get version(): number {
    return this.generation;
  }

  /**
   * Keeps a lookup's answer, unless something was forgotten since it began (its answer may predate
   * that change) or the instance is not hearing the changes.
   */
  rememberSession(claims: AccessClaims, value: SessionUser, version: number): void {
    if (!this.trusted || version !== this.generation) return;
    this.sessions.set(claims.sessionId, { ...value, userId: claims.userId, loadedAt: this.now().getTime() });
    if (this.sessions.size > this.limits.maxSessions)
      this.sessions.delete(this.sessions.keys().next().value!);
  }

  /** A change to this user, its sites or one of its sessions. */
  forgetUser(userId: string): void {
    this.generation++;
    for (const [sessionId, entry] of this.sessions)
      if (entry.userId === userId) this.sessions.delete(sessionId);
  }

  /**
   * Whether every change is heard (the listening connection is up). Either way the sessions are
   * forgotten: changes may have been missed while it was down, or while it was coming up.
   */
  trust(hearing: boolean): void {
    this.trusted = hearing;
    this.generation++;
    this.sessions.clear();
  }

  get size(): number {
    return this.sessions.size;
  }
}
