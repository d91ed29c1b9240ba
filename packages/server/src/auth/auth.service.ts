import { randomUUID } from 'node:crypto';
import {
  normaliseClaimCode,
  type EventAction,
  type Language,
  type RegisterInput,
  type Tokens,
} from '@flowbox/shared';
import { makeActor, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { recordChange } from '../events/index.ts';
import { AppError } from '../errors.ts';
import { invitationEmail, registrationExistsEmail, resetPasswordEmail } from '../mail/templates.ts';
import { forgetOnNotify, heardEverything, type Notifications } from '../live/index.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/index.ts';
import {
  AUTH_CHANNEL,
  claimLinkToken,
  claimRefreshToken,
  emailsSince,
  refreshTokenUsedAt,
  expireLinkTokens,
  expireRefreshTokens,
  findSessionRevokedAt,
  findSessionUser,
  hasSessionFrom,
  insertLinkToken,
  insertRefreshToken,
  insertSession,
  markLoggedIn,
  revokeSessionRow,
  revokeUserSessions,
  setPasswordHash,
  touchSession,
} from './auth.repo.ts';
import {
  confirmRegistrationEmail,
  confirmRegistrationLink,
  hashClaimCode,
  openRegistration,
} from '../endusers/index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { SessionCache, type SessionUser } from './session-cache.ts';
import {
  ANONYMOUS_LIMITS,
  linkKey,
  LoginThrottle,
  registrationKey,
  resetKey,
  resetRequestKey,
  THROTTLE,
} from './throttle.ts';
import { issueLiveTicket, redeemLiveTicket } from './live-tickets.ts';
import { createLinkToken, hashLinkToken, TokenSigner, type AccessClaims } from './tokens.ts';

export const INVITE_TTL_DAYS = 7;
/** How long a registration's confirmation link works (docs/permissions.md "Registration"). */
export const REGISTRATION_CONFIRM_HOURS = 48;

/** A user setting their own password: the log says so, never what it is. */
function recordPasswordEvent(db: Db, at: Date, action: EventAction, user: UserRow): Promise<void> {
  const name = `${user.firstname} ${user.lastname}`;
  return recordChange(
    db,
    at,
    { id: user.id, name },
    {
      action,
      object: 'user',
      objectId: user.id,
      objectLabel: name,
      scope: { customerId: user.customerId },
    },
  );
}
export const RESET_TTL_MINUTES = 60;

/**
 * How long a refresh token that has just been used is still answered (docs/decisions.md "Refresh
 * token reuse"): two tabs sharing the cookies refresh at the same moment, or a page reloads while
 * its refresh is on the wire and never saves the answer. Later, a used token means a copy: the
 * session is revoked.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

type Client = { ip: string; userAgent: string | undefined };

/** What the sessions' cache needs of the instance's listening connection (live/live.ts). */
export type { Notifications };

/** Sessions, passwords and emailed links (spec §4, §7). */
export class AuthService {
  readonly signer: TokenSigner;
  private readonly throttle: LoginThrottle;
  readonly cache: SessionCache;
  /** The record and sites each actor was made of, for the caller's own profile (`recordOf`). */
  private readonly records = new WeakMap<Actor, SessionUser>();

  private readonly background = new Set<Promise<void>>();
  private readonly userChangeListeners = new Set<(userId: string) => void>();

  /** Without notifications (a tool, a test of its own) nothing is cached: every request looks up. */
  constructor(
    private readonly ctx: Context,
    private readonly log: { error: (obj: object, msg: string) => void },
    private readonly notifications?: Notifications,
  ) {
    this.signer = new TokenSigner(
      ctx.config.jwtSecret,
      { access: ctx.config.accessTokenTtl, refresh: ctx.config.refreshTokenTtl },
      ctx.now,
    );
    this.throttle = new LoginThrottle(ctx.db, ctx.now);
    this.cache = new SessionCache(ctx.now);
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

  async updatePassword(actor: Actor, currentPassword: string, password: string): Promise<void> {
    const user = await findUserById(this.ctx.db, actor.id);
    if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError('errors.wrong_current_password', {}, [
        { path: 'current_password', message: 'errors.wrong_current_password' },
      ]);
    }
    const passwordHash = await hashPassword(password);
    await this.ctx.db.transaction(async (tx) => {
      await setPasswordHash(tx, actor.id, passwordHash, this.ctx.now());
      await recordPasswordEvent(tx, this.ctx.now(), 'password_changed', user);
    });
    await this.revokeOtherSessions(actor.id, actor.sessionId, 'password changed');
  }

  /**
   * Counts the request against its client address's limit, then answers: the lookup and the email
   * happen after, so the answer and its time are the same whether an account has this address or
   * not. No 429 is keyed by the email typed: a stranger would use up its owner's requests.
   */
  async requestResetPassword(email: string, clientIp: string): Promise<void> {
    await this.throttle.reserve(resetRequestKey(clientIp), ANONYMOUS_LIMITS.resetRequestsPerAddress);
    this.inBackground('reset email', () => this.sendResetLink(email));
  }

  /** Sends a reset link when the account exists, a few an hour at most to one mailbox. */
  private async sendResetLink(email: string): Promise<void> {
    const user = await findUserByEmail(this.ctx.db, email);
    if (!user) return;
    if (!(await this.throttle.tryReserve(resetKey(user.email), ANONYMOUS_LIMITS.resetPerEmail))) return;
    const token = await this.createLink(user.id, 'reset', RESET_TTL_MINUTES * 60_000);
    const mail = resetPasswordEmail(
      user.language,
      user.firstname,
      this.link('/reset-password', token),
      RESET_TTL_MINUTES,
    );
    await this.ctx.mailer.send({ to: user.email, ...mail, kind: 'reset_password' });
  }

  async sendInvitation(user: UserRow): Promise<void> {
    const token = await this.createLink(user.id, 'invite', INVITE_TTL_DAYS * 86_400_000);
    const mail = invitationEmail(
      user.language,
      user.firstname,
      this.link('/set-password', token),
      INVITE_TTL_DAYS,
    );
    await this.ctx.mailer.send({ to: user.email, ...mail, kind: 'invitation' });
  }

  /**
   * An invitation's link: sets the first password (see usePasswordLink), then opens the new user's
   * first session, answered as a login's tokens, so the one who chose the password does not type it again.
   */
  async acceptInvitation(token: string, password: string, client: Client): Promise<Tokens> {
    const user = await this.usePasswordLink('invite', token, password, client);
    await markLoggedIn(this.ctx.db, user.id, this.ctx.now());
    return this.openSession(user.id, client);
  }

  /**
   * Uses a single-use link to set the password, then ends every session of that user. The client's
   * address may try so many links an hour, like the other anonymous calls.
   */
  async usePasswordLink(
    kind: 'reset' | 'invite',
    token: string,
    password: string,
    client: Client,
  ): Promise<UserRow> {
    await this.throttle.reserve(linkKey(client.ip), ANONYMOUS_LIMITS.linksPerAddress);
    const now = this.ctx.now();
    const passwordHash = await hashPassword(password);
    const user = await this.ctx.db.transaction(async (tx) => {
      const userId = await claimLinkToken(tx, hashLinkToken(token), kind, now);
      if (!userId) return null;
      const updated = await setPasswordHash(tx, userId, passwordHash, now);
      await recordPasswordEvent(
        tx,
        now,
        kind === 'invite' ? 'invitation_accepted' : 'password_reset',
        updated,
      );
      // Any other link of the same user stops working too: only the newest intent counts.
      await expireLinkTokens(tx, userId, now);
      return updated;
    });
    if (!user) throw new AppError('errors.invalid_token');
    // Whoever opened the link holds the mailbox: the account's sign-in lock is lifted.
    await this.throttle.clearAccount(user.email);
    await this.revokeOtherSessions(user.id, null, 'password set from emailed link');
    return user;
  }

  /**
   * spec §1: an end user's registration is recorded for review; no account exists until then. The
   * answer is decided before anything is looked up, after the same work (the limit) for every
   * address, so it tells nothing about which addresses have an account (docs/reliability.md).
   */
  async register(input: RegisterInput, clientIp: string): Promise<void> {
    await this.throttle.reserve(registrationKey(clientIp), ANONYMOUS_LIMITS.registrationsPerAddress);
    this.inBackground('registration', () => this.recordRegistration(input));
  }

  /**
   * docs/permissions.md "Registration": a usable claim code (and, when given, a serial of its zone)
   * records an unconfirmed registration and emails its confirmation link; an address with an
   * account gets an email telling its owner, who alone may learn that it exists, a few times a day
   * at most. A wrong code or serial records and sends nothing: the answer, already sent, was the same.
   */
  private async recordRegistration(input: RegisterInput): Promise<void> {
    const now = this.ctx.now();
    const codeHash = hashClaimCode(normaliseClaimCode(input.claim_code));
    const token = createLinkToken();
    const link = {
      hash: token.hash,
      expiresAt: new Date(now.getTime() + REGISTRATION_CONFIRM_HOURS * 3_600_000),
    };
    const outcome = await this.ctx.db.transaction((tx) =>
      openRegistration(tx, input, codeHash, link, now, (user) => this.tellAccountExists(tx, user, now)),
    );
    if (outcome === 'told') this.ctx.mailer.kick();
    if (outcome !== 'confirm') return;
    const mail = confirmRegistrationEmail(
      input.language as Language,
      this.link('/register/confirm', token.token),
      REGISTRATION_CONFIRM_HOURS,
    );
    await this.ctx.mailer.send({ to: input.email, ...mail, kind: 'registration_confirm' });
  }

  /**
   * "You already have an account", queued in the registration's transaction under its address's
   * lock, so that registrations sent at once cannot pass the day's count together; false when the
   * day's count is reached.
   */
  private async tellAccountExists(tx: Db, user: UserRow, now: Date): Promise<boolean> {
    const dayAgo = new Date(now.getTime() - 24 * 3_600_000);
    const told = await emailsSince(tx, user.email, 'registration_exists', dayAgo);
    if (told >= ANONYMOUS_LIMITS.accountExistsPerEmailPerDay) return false;
    const mail = registrationExistsEmail(
      user.language,
      user.firstname,
      `${this.ctx.config.publicUrl}/login`,
      `${this.ctx.config.publicUrl}/reset-password-request`,
    );
    await this.ctx.mailer.enqueue(tx, [{ to: user.email, ...mail, kind: 'registration_exists' }]);
    return true;
  }

  /**
   * The registration's emailed link: the address is confirmed, with the password its opener chose
   * (the one who holds the mailbox: the registrant chose none, docs/permissions.md), and the claim
   * code counts one use. A code that approves by itself makes the account now; otherwise the zone's
   * managers decide.
   */
  async confirmRegistration(
    token: string,
    password: string,
    clientIp: string,
  ): Promise<'pending' | 'approved'> {
    await this.throttle.reserve(linkKey(clientIp), ANONYMOUS_LIMITS.linksPerAddress);
    const passwordHash = await hashPassword(password);
    const now = this.ctx.now();
    const status = await this.ctx.db.transaction((tx) =>
      confirmRegistrationLink(tx, this.ctx, hashLinkToken(token), passwordHash, now),
    );
    this.ctx.mailer.kick();
    return status;
  }

  /**
   * Work done after the answer was sent; a failure is logged, never raised (the caller has its answer).
   * `settled()` waits for it: on close, and in tests.
   */
  private inBackground(what: string, task: () => Promise<void>): void {
    // Started once the answer is on its way (setImmediate runs after the reply is written): none of
    // this work, whose amount depends on whether the address has an account, may delay the answer.
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error }, `${what} failed after the answer`))
      .finally(() => this.background.delete(running));
    this.background.add(running);
  }

  async settled(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  private async createLink(userId: string, kind: 'reset' | 'invite', ttlMs: number): Promise<string> {
    const { token, hash } = createLinkToken();
    await insertLinkToken(this.ctx.db, {
      userId,
      kind,
      tokenHash: hash,
      expiresAt: new Date(this.ctx.now().getTime() + ttlMs),
    });
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.ctx.config.publicUrl}${path}?token=${encodeURIComponent(token)}`;
  }
}
