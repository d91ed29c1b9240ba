import { ROLES } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitKey } from './rate-limit.ts';
import { THROTTLE } from '../auth/throttle.ts';
import { createTestApp, createUser, PASSWORD, type TestApp } from '../test/harness.ts';

/*
 * Behind a proxy (docs/operations.md "Behind a proxy"): with TRUST_PROXY naming it, the rate limit
 * and the sign-in throttle count the client X-Forwarded-For names; without it, a client cannot
 * dodge either by sending the header itself. The test's requests come from 127.0.0.1, the proxy.
 */
const PROXY = '127.0.0.1';
const LIMIT = 3;

function client(t: TestApp, forwardedFor: string) {
  const headers = { 'x-forwarded-for': forwardedFor };
  return {
    get: () => t.app.inject({ url: '/v1/users/me', remoteAddress: PROXY, headers }),
    login: (email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/users/token',
        remoteAddress: PROXY,
        headers,
        payload: { email, password },
      }),
  };
}

async function statuses(send: () => Promise<{ statusCode: number }>, times: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < times; i++) answers.push((await send()).statusCode);
  return answers;
}

describe.each([
  { trust: 'the proxy address', trustProxy: [PROXY] },
  { trust: 'one hop', trustProxy: 1 },
])('with TRUST_PROXY set to $trust', ({ trustProxy }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy, rateLimitPerMinute: LIMIT });
  });
  afterAll(() => t.close());

  it('gives two forwarded clients rate-limit buckets of their own', async () => {
    const a = client(t, '203.0.113.1');
    const b = client(t, '198.51.100.7, 203.0.113.2');
    expect(await statuses(a.get, LIMIT + 1)).toEqual([401, 401, 401, 429]);
    expect((await b.get()).statusCode).toBe(401);
  });

  it('sends HSTS when the proxy says the client came over HTTPS (TLS ends at the proxy), not over HTTP', async () => {
    const through = (proto: string, n: number) =>
      t.app.inject({
        url: '/v1/health',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `203.0.113.${n}`, 'x-forwarded-proto': proto },
      });
    expect((await through('https', 60)).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await through('http', 61)).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('with TRUST_PROXY set, the sign-in throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ trustProxy: [PROXY] });
    await createUser(t.db, { email: 'office@test.io', role: ROLES.flovea_manager });
  });
  afterAll(() => t.close());

  it('slows the forwarded client that failed, not another client behind the same proxy', async () => {
    const guesser = client(t, '203.0.113.10');
    for (let i = 0; i < THROTTLE.pairFree; i++)
      expect((await guesser.login('office@test.io', `guess-${i}-x`)).statusCode).toBe(401);
    expect((await guesser.login('office@test.io', PASSWORD)).statusCode).toBe(429);
    expect((await client(t, '203.0.113.11').login('office@test.io', PASSWORD)).statusCode).toBe(200);
  });
});

describe('without TRUST_PROXY (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPerMinute: LIMIT });
  });
  afterAll(() => t.close());

  it('counts the socket address: a forged X-Forwarded-For changes neither the rate limit nor the throttle', async () => {
    const answers = [];
    for (let i = 0; i < LIMIT + 1; i++)
      answers.push((await client(t, `203.0.113.${i + 20}`).get()).statusCode);
    expect(answers).toEqual([401, 401, 401, 429]);
  });

  it('sends no HSTS for an X-Forwarded-Proto it does not trust (the site is served over plain HTTP)', async () => {
    const forged = await t.app.inject({
      url: '/v1/health',
      remoteAddress: '127.0.0.9',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.statusCode).toBe(200);
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps the sign-in throttle on the socket address too', async () => {
    // An app without the low request limit, which the guesses would reach first.
    const fresh = await createTestApp();
    try {
      await createUser(fresh.db, { email: 'forger@test.io', role: ROLES.flovea_manager });
      for (let i = 0; i < THROTTLE.pairFree; i++)
        expect(
          (await client(fresh, `203.0.113.${i + 40}`).login('forger@test.io', `guess-${i}-x`)).statusCode,
        ).toBe(401);
      const forged = await client(fresh, '198.51.100.99').login('forger@test.io', PASSWORD);
      expect(forged.statusCode).toBe(429);
    } finally {
      await fresh.close();
    }
  });
});

describe('the rate limit key', () => {
  it('groups an IPv6 client by its /64 as the plugin does, and keeps IPv4 addresses apart', () => {
    expect(rateLimitKey({ ip: '2001:db8:1:2::1' })).toBe(rateLimitKey({ ip: '2001:db8:1:2:ffff::9' }));
    expect(rateLimitKey({ ip: '2001:db8:1:2::1' })).not.toBe(rateLimitKey({ ip: '2001:db8:1:3::1' }));
    expect(rateLimitKey({ ip: '10.0.0.1' })).toBe('10.0.0.1');
    expect(rateLimitKey({ ip: '::ffff:10.0.0.1' })).toBe('10.0.0.1');
  });

  it('has a key for a client gone before its request was handled (no address any more), instead of failing', () => {
    expect(() => rateLimitKey({ ip: undefined })).not.toThrow();
    expect(rateLimitKey({ ip: undefined })).toBe('disconnected-client');
  });
});
