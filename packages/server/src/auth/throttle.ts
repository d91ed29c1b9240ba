import type { Db } from '../db/client.ts';
import { TooManyRequests } from '../errors.ts';
import {
  deleteFailures,
  deleteFailuresBefore,
  deleteFailuresOf,
  insertFailures,
  keyStats,
  lockKeys,
  type KeyStats,
} from './login-failures.repo.ts';

/**
 * The sign-in policy (docs/reliability.md "Sign-in throttling", OWASP ASVS 4.0.3 V2.2.1). Counts
 * run over one sliding hour:
 * - one account from one address: `pairFree` failures, then each further try waits twice as long
 *   as the one before (from `firstDelayS` up to `maxDelayS`) — slows a guesser, never shuts the
 *   owner out for long, and only this pair: the owner elsewhere is not affected;
 * - one address over every account (password spraying): `perAddress` failures, then only accounts
 *   that have already signed in from that address may try (the users behind a shared proxy);
 * - one account over every address (a distributed attack): `perAccount` failures, the ASVS ceiling,
 *   then only addresses the account has signed in from; setting the password from an emailed reset
 *   link lifts it.
 */
export const THROTTLE = {
  windowMs: 60 * 60_000,
  pairFree: 5,
  firstDelayS: 15,
  maxDelayS: 15 * 60,
  perAddress: 100,
  perAccount: 100,
  /** Addresses an account signed in from within this long are its known addresses. */
  knownAddressDays: 90,
} as const;

/**
 * Limits on the other anonymous calls that cost the product work or send an email. A limit that
 * answers 429 is keyed by the client's address, never by a value the caller writes (an email, a
 * code, a serial): anyone may write someone else's, and would use up its owner's tries. What is
 * keyed by such a value bounds only what reaches it (emails), after the answer, which is the same.
 */
export const ANONYMOUS_LIMITS = {
  /**
   * Reset emails per email address an hour, whoever asks: past it a request is answered alike and
   * sends nothing (the mailbox already holds working links).
   */
  resetPerEmail: 3,
  /** Reset requests per client address an hour, whatever the email. */
  resetRequestsPerAddress: 10,
  /** Registrations per client address an hour. */
  registrationsPerAddress: 5,
  /** Emailed links (set or reset a password) tried per client address an hour. */
  linksPerAddress: 20,
  /**
   * "You already have an account" emails per address a day (docs/permissions.md "Registration"):
   * registrations sent from many client addresses would otherwise flood the owner's mailbox.
   */
  accountExistsPerEmailPerDay: 3,
} as const;

/** How long a sign-in must wait, in ms (0: it may be checked now); pure, so the policy is testable alone. */
export function loginWaitMs(
  stats: { pair?: KeyStats; address?: KeyStats; account?: KeyStats },
  knownAddress: boolean,
  now: Date,
): number {
  const waits = [0];
  const { pair, address, account } = stats;
  if (pair && pair.failures >= THROTTLE.pairFree) {
    const doublings = pair.failures - THROTTLE.pairFree;
    const delayS = Math.min(THROTTLE.maxDelayS, THROTTLE.firstDelayS * 2 ** Math.min(doublings, 20));
    waits.push(pair.newest.getTime() + delayS * 1000 - now.getTime());
  }
  if (!knownAddress) {
    for (const [key, limit] of [
      [address, THROTTLE.perAddress],
      [account, THROTTLE.perAccount],
    ] as const) {
      if (key && key.failures >= limit) waits.push(key.oldest.getTime() + THROTTLE.windowMs - now.getTime());
    }
  }
  return Math.max(...waits);
}

/** The rows a sign-in attempt reserved: they stay as its failure unless it succeeds. */
export type LoginAttempt = { ids: number[]; pairKey: string };

/**
 * Throttling kept in the database, so it holds across server instances. Every check and count is
 * one reservation under an advisory lock of the keys involved: an attempt is counted as a failure
 * before its password is verified, so parallel guesses cannot get more checks than the policy
 * allows; a success takes its reservation back.
 */
export class LoginThrottle {
  private lastPruneMs = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /**
   * Reserves a sign-in attempt, or refuses with 429 and how long to wait. `knownAddress`: the account
   * has signed in from this address before.
   */
  async reserveLogin(email: string, ip: string, knownAddress: boolean): Promise<LoginAttempt> {
    const keys = { pair: pairKey(email, ip), address: addressKey(ip), account: accountKey(email) };
    const ids = await this.db.transaction(async (tx) => {
      await lockKeys(tx, [keys.account, keys.address]);
      const now = this.now();
      const stats = await keyStats(tx, Object.values(keys), windowStart(now));
      const of = (key: string) => stats.get(key);
      const statsByKind = { pair: of(keys.pair), address: of(keys.address), account: of(keys.account) };
      const waitMs = loginWaitMs(statsByKind, knownAddress, now);
      if (waitMs > 0) throw tooManyAttempts(waitMs);
      return insertFailures(tx, Object.values(keys), now);
    });
    await this.prune();
    return { ids, pairKey: keys.pair };
  }

  /** The password was right: the attempt was no failure, and this pair starts afresh. */
  async loginSucceeded(attempt: LoginAttempt): Promise<void> {
    await deleteFailures(this.db, attempt.ids, attempt.pairKey);
  }

  /** The owner proved they hold the mailbox (emailed link): the account's failures are forgotten. */
  async clearAccount(email: string): Promise<void> {
    await deleteFailuresOf(this.db, accountKey(email), pairPrefix(email));
  }

  /** Counts one more attempt under `key`, or refuses with 429 when `limit` were made in the hour. */
  async reserve(key: string, limit: number): Promise<void> {
    const waitMs = await this.take(key, limit);
    if (waitMs > 0) throw tooManyAttempts(waitMs);
  }

  /** Counts one more under `key` and answers true, or false when `limit` were counted in the hour. */
  async tryReserve(key: string, limit: number): Promise<boolean> {
    return (await this.take(key, limit)) === 0;
  }

  /** Counts one more under `key`, under its lock; how long to wait instead (ms) when `limit` is reached. */
  private async take(key: string, limit: number): Promise<number> {
    const waitMs = await this.db.transaction(async (tx) => {
      await lockKeys(tx, [key]);
      const now = this.now();
      const stats = (await keyStats(tx, [key], windowStart(now))).get(key);
      if (stats && stats.failures >= limit)
        return Math.max(1, stats.oldest.getTime() + THROTTLE.windowMs - now.getTime());
      await insertFailures(tx, [key], now);
      return 0;
    });
    await this.prune();
    return waitMs;
  }

  /** Rows older than the window count for nothing; cleared at most once a minute per instance. */
  private async prune(): Promise<void> {
    const now = this.now();
    if (now.getTime() - this.lastPruneMs < 60_000) return;
    this.lastPruneMs = now.getTime();
    await deleteFailuresBefore(this.db, windowStart(now));
  }
}

function tooManyAttempts(waitMs: number): TooManyRequests {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new TooManyRequests('errors.too_many_attempts', seconds, { minutes: Math.ceil(seconds / 60) });
}

const windowStart = (now: Date) => new Date(now.getTime() - THROTTLE.windowMs);

const normal = (email: string) => email.trim().toLowerCase();
const accountKey = (email: string) => `account:${normal(email)}`;
const addressKey = (ip: string) => `address:${ip}`;
// An email holds no space, so the account's pairs are the keys that start with this prefix.
const pairPrefix = (email: string) => `pair:${normal(email)} `;
const pairKey = (email: string, ip: string) => `${pairPrefix(email)}${ip}`;

export const resetKey = (email: string) => `reset:${normal(email)}`;
export const resetRequestKey = (ip: string) => `reset-from:${ip}`;
export const registrationKey = (ip: string) => `register:${ip}`;
export const linkKey = (ip: string) => `link:${ip}`;
