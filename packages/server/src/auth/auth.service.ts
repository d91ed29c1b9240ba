import { randomUUID } from 'node:crypto';
import type { Tokens } from '@flowbox/shared';
import { makeActor, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import { AppError } from '../errors.ts';
import { forgetOnNotify, heardEverything, type Notifications } from '../live/index.ts';
import { findUserByEmail, type UserRow } from '../users/index.ts';
import {
  AUTH_CHANNEL,
  claimRefreshToken,
  refreshTokenUsedAt,
  expireRefreshTokens,
  findSessionRevokedAt,
  findSessionUser,
  hasSessionFrom,
  insertRefreshToken,
  insertSession,
  markLoggedIn,
  revokeSessionRow,
  revokeUserSessions,
  touchSession,
} from './auth.repo.ts';
import { AccountLinksService, type Client } from './account-links.service.ts';
import { verifyPassword } from './passwords.ts';
import { SessionCache, type SessionUser } from './session-cache.ts';
import { LoginThrottle, THROTTLE } from './throttle.ts';
import { issueLiveTicket, redeemLiveTicket } from './live-tickets.ts';
import { TokenSigner, type AccessClaims } from './tokens.ts';

/**
 * How long a refresh token that has just been used is still answered (docs/decisions.md "Refresh
 * token reuse"): two tabs sharing the cookies refresh at the same moment, or a page reloads while
 * its refresh is on the wire and never saves the answer. Later, a used token means a copy: the
 * session is revoked.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/** What the sessions' cache needs of the instance's listening connection (live/live.ts). */
export type { Notifications };

/** Sessions: sign-in, tokens, the sessions' cache and their end (spec §4, §7). */
export class AuthService {
  readonly signer: TokenSigner;
  private readonly throttle: LoginThrottle;
  readonly cache: SessionCache;
  /** The record and sites each actor was made of, for the caller's own profile (`recordOf`). */
  private readonly records = new WeakMap<Actor, SessionUser>();

  /** The account's emailed links and password change (account-links.service.ts). */
  readonly links: AccountLinksService;
  private readonly userChangeListeners = new Set<(userId: string) => void>();

  /** Without notifications (a tool, a test of its own) nothing is cached: every request looks up. */
  constructor(
    private readonly ctx: Context,
    log: { error: (obj: object, msg: string) => void },
    private readonly notifications?: Notifications,
  ) {
    this.signer = new TokenSigner(
      ctx.config.jwtSecret,
      { access: ctx.config.accessTokenTtl, refresh: ctx.config.refreshTokenTtl },
      ctx.now,
    );
    this.throttle = new LoginThrottle(ctx.db, ctx.now);
    this.cache = new SessionCache(ctx.now);
    this.links = new AccountLinksService(ctx, log, this.throttle, this);
    if (notifications)
      forgetOnNotify(notifications, AUTH_CHANNEL, {
        forget: (userId) => {
          this.cache.forgetUser(userId);
          for (const listener of this.userChangeListeners) listener(userId);
        },
        trust: (hearing) => this.cache.trust(hearing),
      });
  }

  async login(email: string, password: string, client: Client): Promise<Tokens> {
    const user = await findUserByEmail(this.ctx.db, email);
    const known = user ? await this.signedInFrom(user.id, client.ip) : false;
    const attempt = await this.throttle.reserveLogin(email, client.ip, known);
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    // A suspended account is refused as a wrong password is (docs/permissions.md): no session.
    if (!user || !ok || user.suspendedAt) throw new AppError('errors.login_failed');
    await this.throttle.loginSucceeded(attempt);
    await markLoggedIn(this.ctx.db, user.id, this.ctx.now());
    return this.openSession(user.id, client);
  }

  /** Whether the user has opened a session from this address lately (docs/reliability.md). */
  private async signedInFrom(userId: string, ip: string): Promise<boolean> {
    const since = new Date(this.ctx.now().getTime() - THROTTLE.knownAddressDays * 86_400_000);
    return hasSessionFrom(this.ctx.db, userId, ip, since);
  }

  /** Opens a new session (a refresh-token family) and answers its first pair of tokens. */
  async openSession(userId: string, client: Client): Promise<Tokens> {
    const sessionId = await insertSession(this.ctx.db, {
      userId,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300),
    });
    return this.issueTokens(userId, sessionId);
  }

  /**
   * Rotates the refresh token. A token used twice means it was copied: the whole session is
   * revoked, so neither the thief nor the owner can go on with it.
   */
  async refresh(refreshToken: string): Promise<Tokens> {
    const claims = await this.signer.verifyRefresh(refreshToken);
    const now = this.ctx.now();
    if (
      !(await claimRefreshToken(this.ctx.db, claims.tokenId, claims.sessionId, now)) &&
      !(await this.justUsed(claims, now))
    ) {
      await this.revokeSession(claims.sessionId, 'refresh token reused');
      throw new AppError('errors.auth_expired');
    }
    const session = await findSessionRevokedAt(this.ctx.db, claims.sessionId);
    if (!session || session.revokedAt) throw new AppError('errors.auth_expired');
    await touchSession(this.ctx.db, claims.sessionId, now);
    return this.issueTokens(claims.userId, claims.sessionId);
  }

  /** A token used less than REFRESH_REUSE_GRACE_SECONDS ago: the same browser asking again, not a copy. */
  private async justUsed(claims: { tokenId: string; sessionId: string }, now: Date): Promise<boolean> {
    const usedAt = await refreshTokenUsedAt(this.ctx.db, claims.tokenId, claims.sessionId);
    return usedAt !== null && now.getTime() - usedAt.getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000;
  }

  /** New tokens for a live session whose refresh token stops working: the session keeps one live refresh token. */
  async renewTokens(userId: string, sessionId: string): Promise<Tokens> {
    await expireRefreshTokens(this.ctx.db, sessionId, this.ctx.now());
    return this.issueTokens(userId, sessionId);
  }

  async issueTokens(userId: string, sessionId: string): Promise<Tokens> {
    const tokenId = randomUUID();
    await insertRefreshToken(this.ctx.db, { id: tokenId, sessionId, expiresAt: this.signer.refreshExpiry() });
    const [access_token, refresh_token] = await Promise.all([
      this.signer.signAccess({ userId, sessionId }),
      this.signer.signRefresh({ userId, sessionId, tokenId }),
    ]);
    return { access_token, refresh_token, token_type: 'Bearer', expires_in: this.signer.accessTtl };
  }

  /**
   * Checks an access token and loads its user; a revoked session or a deleted user ends here. Both
   * are remembered (auth/session-cache.ts): a change to the user, its sites or its sessions,
   * committed on any instance before this request, has been heard and forgotten before the
   * remembered user is used.
   */
  async authenticate(accessToken: string): Promise<Actor> {
    const claims = await this.verifiedAccess(accessToken);
    if (this.cache.sessionUser(claims) && (await heardEverything(this.notifications))) {
      const known = this.cache.sessionUser(claims);
      if (known) {
        this.cache.hits++;
        return known.actor;
      }
    }
    this.cache.misses++;
    const version = this.cache.version;
    const value = await this.lookUpSession(claims);
    if (!value) throw new AppError('errors.auth_expired');
    this.cache.rememberSession(claims, value, version);
    return value.actor;
  }

  /**
   * The session's actor as the database has it now, never from memory; undefined once the session
   * is over (revoked, its user deleted or suspended). For what outlives a request: a live stream.
   */
  async currentActor(claims: AccessClaims): Promise<Actor | undefined> {
    return (await this.lookUpSession(claims))?.actor;
  }

  /**
   * Told of each change to a user, its sites, zones or sessions, made on any instance, once the
   * cache has forgotten it (the `flowbox_auth` notifications; nothing without notifications).
   */
  onUserChange(listener: (userId: string) => void): () => void {
    this.userChangeListeners.add(listener);
    return () => this.userChangeListeners.delete(listener);
  }

  /** A single-use ticket for the live stream of the caller's session (live-tickets.ts). */
  issueLiveTicket(actor: Actor): Promise<string> {
    return issueLiveTicket(this.ctx.db, { userId: actor.id, sessionId: actor.sessionId }, this.ctx.now());
  }

  /** The session a live ticket was asked in, the first time it is used; else 401. */
  redeemLiveTicket(ticket: string): Promise<AccessClaims> {
    return redeemLiveTicket(this.ctx.db, ticket, this.ctx.now());
  }

  private async lookUpSession(claims: AccessClaims): Promise<SessionUser | undefined> {
    const row = await findSessionUser(this.ctx.db, claims.sessionId, claims.userId);
    if (!row || row.revokedAt || row.user.suspendedAt) return undefined;
    const actor = makeActor(row.user, row.siteIds, claims.sessionId, row.zoneIds);
    // Shared by the requests of this session from now on: nobody may change it.
    Object.freeze(actor.siteIds);
    Object.freeze(actor.zoneIds);
    const value = { actor: Object.freeze(actor), user: row.user, siteIds: row.siteIds };
    this.records.set(value.actor, value);
    return value;
  }

  /** The caller's own record and sites, as its session's lookup read them (kept current as the actor is). */
  recordOf(actor: Actor): { user: UserRow; siteIds: string[] } | undefined {
    return this.records.get(actor);
  }

  private async verifiedAccess(token: string) {
    const known = this.cache.claimsOf(token);
    if (known) return known;
    const { expiresAt, ...claims } = await this.signer.verifyAccess(token);
    this.cache.rememberToken(token, claims, expiresAt);
    return claims;
  }

  async logout(actor: Actor): Promise<void> {
    await this.revokeSession(actor.sessionId, 'logout');
  }

  async revokeSession(sessionId: string, reason: string): Promise<void> {
    await revokeSessionRow(this.ctx.db, sessionId, this.ctx.now(), reason);
  }

  /** Ends every session of a user but the one given (after a password change or reset). */
  async revokeOtherSessions(userId: string, keepSessionId: string | null, reason: string): Promise<void> {
    await revokeUserSessions(this.ctx.db, userId, keepSessionId, this.ctx.now(), reason);
  }

  /** An invited user's first link (users/ asks it of the sessions, ManagerSessions). */
  sendInvitation(user: UserRow): Promise<void> {
    return this.links.sendInvitation(user);
  }

  /** Waits for the links' work done after their answers: on close, and in tests. */
  settled(): Promise<void> {
    return this.links.settled();
  }
}
