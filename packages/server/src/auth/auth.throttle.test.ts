import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '../db/schema.ts';
import { createTestApp, createUser, PASSWORD, type TestApp } from '../test/harness.ts';
import { loginWaitMs, THROTTLE } from './throttle.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A sign-in from a given client address (the server trusts no proxy header: this is the socket's). */
function login(email: string, password: string, ip: string, language: 'en' | 'fr' = 'en') {
  return t.app.inject({
    method: 'POST',
    url: '/v1/users/token',
    payload: { email, password },
    remoteAddress: ip,
    headers: { 'accept-language': language },
  });
}

/** Moves past every window, so that each test starts from a clean slate. */
const forgetEverything = () => t.clock.advance(THROTTLE.windowMs + 1000);

describe('sign-in throttling (docs/reliability.md, OWASP ASVS V2.2.1)', () => {
  it('checks no more guesses than the policy allows, even when they arrive together', async () => {
    forgetEverything();
    await createUser(t.db, { email: 'parallel@test.io', role: ROLES.flovea_manager });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login('parallel@test.io', `guess-${i}-x`, '10.9.0.1')),
    );
    const checked = answers.filter((a) => a.statusCode === 401);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(checked).toHaveLength(THROTTLE.pairFree);
    expect(refused).toHaveLength(40 - THROTTLE.pairFree);
    for (const answer of refused) expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("does not let an attacker's failures lock the owner out from elsewhere", async () => {
    forgetEverything();
    await createUser(t.db, { email: 'owner@test.io', role: ROLES.flovea_manager });
    for (let i = 0; i < 20; i++) await login('owner@test.io', `guess-${i}-x`, '10.66.0.1');
    expect((await login('owner@test.io', 'guess-99-x', '10.66.0.1')).statusCode).toBe(429);
    expect((await login('owner@test.io', PASSWORD, '10.7.0.1')).statusCode).toBe(200);
  });

  it('slows one account from one address with doubling delays, each answer saying how long to wait', async () => {
    forgetEverything();
    await createUser(t.db, { email: 'typo@test.io', role: ROLES.flovea_manager });
    for (let i = 0; i < THROTTLE.pairFree; i++)
      expect((await login('typo@test.io', `typo-${i}-x`, '10.8.0.1')).statusCode).toBe(401);
    const first = await login('typo@test.io', PASSWORD, '10.8.0.1', 'fr');
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe(String(THROTTLE.firstDelayS));
    expect(first.json()).toEqual({
      code: 'errors.too_many_attempts',
      message: 'Trop de tentatives, veuillez réessayer dans 1 minutes',
    });
    t.clock.advance(THROTTLE.firstDelayS * 1000);
    expect((await login('typo@test.io', 'typo-again-x', '10.8.0.1')).statusCode).toBe(401);
    const second = await login('typo@test.io', PASSWORD, '10.8.0.1');
    expect(second.headers['retry-after']).toBe(String(THROTTLE.firstDelayS * 2));
    t.clock.advance(THROTTLE.firstDelayS * 2 * 1000);
    // The owner gets in after the wait, and the pair starts afresh.
    expect((await login('typo@test.io', PASSWORD, '10.8.0.1')).statusCode).toBe(200);
    expect((await login('typo@test.io', 'typo-later-x', '10.8.0.1')).statusCode).toBe(401);
  });

  it('stops password spraying from one address, but not the accounts already used from it (a shared proxy)', async () => {
    forgetEverything();
    await createUser(t.db, { email: 'behind-proxy@test.io', role: ROLES.flovea_manager });
    expect((await login('behind-proxy@test.io', PASSWORD, '10.1.1.1')).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.perAddress; i++)
      expect((await login(`spray${i}@test.io`, 'spring-2026-x', '10.1.1.1')).statusCode).toBe(401);
    const sprayed = await login('spray-next@test.io', 'spring-2026-x', '10.1.1.1');
    expect(sprayed.statusCode).toBe(429);
    expect(Number(sprayed.headers['retry-after'])).toBeGreaterThan(THROTTLE.windowMs / 1000 - 120);
    expect((await login('behind-proxy@test.io', PASSWORD, '10.1.1.1')).statusCode).toBe(200);
    expect((await login('spray-next@test.io', 'spring-2026-x', '10.1.1.2')).statusCode).toBe(401);
  });

  it('caps a distributed attack on one account at the ASVS ceiling; the owner still signs in from a known address, and an emailed reset lifts it', async () => {
    forgetEverything();
    await createUser(t.db, { email: 'victim@test.io', role: ROLES.flovea_manager });
    expect((await login('victim@test.io', PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.perAccount; i++)
      expect((await login('victim@test.io', `guess-${i}-x`, `10.3.${i >> 8}.${i & 255}`)).statusCode).toBe(
        401,
      );
    const locked = await login('victim@test.io', PASSWORD, '10.4.0.1');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('victim@test.io', PASSWORD, '10.2.0.1')).statusCode).toBe(200);

    await t.app.inject({
      method: 'POST',
      url: '/v1/users/request_reset_password',
      payload: { email: 'victim@test.io' },
    });
    await t.services.auth.settled();
    const [mail] = await t.db.select().from(emails).where(eq(emails.to, 'victim@test.io'));
    const token = decodeURIComponent(mail!.text.match(/token=([\w%-]+)/)![1]!);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/v1/users/reset_password',
      payload: { token, password: 'fresh-start-9' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login('victim@test.io', 'fresh-start-9', '10.4.0.1')).statusCode).toBe(200);
  });
});

describe('the policy on its own', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  it('lets a pair under the free failures through, then doubles the delay up to the cap', () => {
    const pair = (failures: number) => ({ failures, oldest: ago(600), newest: now });
    expect(loginWaitMs({ pair: pair(THROTTLE.pairFree - 1) }, false, now)).toBe(0);
    expect(loginWaitMs({ pair: pair(THROTTLE.pairFree) }, false, now)).toBe(THROTTLE.firstDelayS * 1000);
    expect(loginWaitMs({ pair: pair(THROTTLE.pairFree + 1) }, false, now)).toBe(THROTTLE.firstDelayS * 2000);
    expect(loginWaitMs({ pair: pair(THROTTLE.pairFree + 40) }, false, now)).toBe(THROTTLE.maxDelayS * 1000);
  });

  it('holds the address and account ceilings for unknown addresses only', () => {
    const full = { failures: THROTTLE.perAccount, oldest: ago(600), newest: now };
    expect(loginWaitMs({ account: full }, false, now)).toBe(THROTTLE.windowMs - 600_000);
    expect(loginWaitMs({ account: full }, true, now)).toBe(0);
    expect(loginWaitMs({ address: { ...full, failures: THROTTLE.perAddress } }, true, now)).toBe(0);
  });
});
