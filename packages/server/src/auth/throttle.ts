import { and, eq, gt, inArray, lt, min, count } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { loginFailures } from '../db/schema.ts';
import { AppError } from '../errors.ts';

/**
 * Login throttling kept in the database, so it holds across server instances: after too many
 * failures in the window for one account or one address, logins from it answer 429 until the
 * oldest failure leaves the window.
 */
export const THROTTLE = {
  windowMs: 15 * 60_000,
  perAccount: 5,
  perAddress: 30,
} as const;

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  async check(email: string, ip: string): Promise<void> {
    const since = new Date(this.now().getTime() - THROTTLE.windowMs);
    for (const [key, limit] of [
      [accountKey(email), THROTTLE.perAccount],
      [addressKey(ip), THROTTLE.perAddress],
    ] as const) {
      const [row] = await this.db
        .select({ failures: count(), oldest: min(loginFailures.at) })
        .from(loginFailures)
        .where(and(eq(loginFailures.key, key), gt(loginFailures.at, since)));
      if (row && row.failures >= limit && row.oldest) {
        const waitMs = new Date(row.oldest).getTime() + THROTTLE.windowMs - this.now().getTime();
        throw new AppError(429, 'errors.too_many_attempts', {
          minutes: Math.max(1, Math.ceil(waitMs / 60_000)),
        });
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const at = this.now();
    await this.db.insert(loginFailures).values([
      { key: accountKey(email), at },
      { key: addressKey(ip), at },
    ]);
    await this.db
      .delete(loginFailures)
      .where(lt(loginFailures.at, new Date(at.getTime() - THROTTLE.windowMs)));
  }

  async clearAccount(email: string): Promise<void> {
    await this.db.delete(loginFailures).where(inArray(loginFailures.key, [accountKey(email)]));
  }
}

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (ip: string) => `address:${ip}`;
