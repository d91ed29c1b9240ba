import {
  normaliseClaimCode,
  type EventAction,
  type Language,
  type RegisterInput,
  type Tokens,
} from '@flowbox/shared';
import type { Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  confirmRegistrationEmail,
  confirmRegistrationLink,
  hashClaimCode,
  openRegistration,
} from '../endusers/index.ts';
import { recordChange } from '../events/index.ts';
import { AppError } from '../errors.ts';
import { invitationEmail, registrationExistsEmail, resetPasswordEmail } from '../mail/templates.ts';
import { findUserByEmail, findUserById, type UserRow } from '../users/index.ts';
import {
  claimLinkToken,
  emailsSince,
  expireLinkTokens,
  insertLinkToken,
  markLoggedIn,
  setPasswordHash,
} from './auth.repo.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  ANONYMOUS_LIMITS,
  linkKey,
  registrationKey,
  resetKey,
  resetRequestKey,
  type LoginThrottle,
} from './throttle.ts';
import { createLinkToken, hashLinkToken } from './tokens.ts';

export const INVITE_TTL_DAYS = 7;
/** How long a registration's confirmation link works (docs/permissions.md "Registration"). */
export const REGISTRATION_CONFIRM_HOURS = 48;
export const RESET_TTL_MINUTES = 60;

/** The client a request comes from, as a session records it. */
export type Client = { ip: string; userAgent: string | undefined };

/** What a link needs of the sessions (AuthService): a first session, and the others ended. */
export type LinkSessions = {
  openSession(userId: string, client: Client): Promise<Tokens>;
  revokeOtherSessions(userId: string, keepSessionId: string | null, reason: string): Promise<void>;
};

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

/**
 * What an account's owner changes by their own hand (spec §1, §7): the emailed links (an
 * invitation, a password reset, a registration's confirmation) and the password change. The
 * sessions they open or end are AuthService's (auth.service.ts).
 */
export class AccountLinksService {
  private readonly background = new Set<Promise<void>>();

  constructor(
    private readonly ctx: Context,
    private readonly log: { error: (obj: object, msg: string) => void },
    private readonly throttle: LoginThrottle,
    private readonly sessions: LinkSessions,
  ) {}

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
    await this.sessions.revokeOtherSessions(actor.id, actor.sessionId, 'password changed');
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
    return this.sessions.openSession(user.id, client);
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
    await this.sessions.revokeOtherSessions(user.id, null, 'password set from emailed link');
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
