import { ROLES } from '@flowbox/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance, type SecondInstance } from '../test/instances.ts';
import { makeActor } from '../access/access.ts';
import { until } from '../flowboxes/testing.ts';
import { SessionCache } from './session-cache.ts';
import type { UserRow } from '../users/index.ts';
import {
  ApiClient,
  createTestApp,
  createUser,
  createWorld,
  PASSWORD,
  TestClock,
  type TestApp,
  type World,
} from '../test/harness.ts';

// Two instances on one database: on PostgreSQL each with its own pool and listening connection (as
// two processes would be), on PGlite both on the one in-process database. Instance A makes each
// change; instance B, which has its caller's session in its cache, must refuse or answer anew at
// the very next request (docs/decisions.md "Sessions cached per instance").
let t: TestApp;
let w: World;
let b: SecondInstance;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  b = await secondInstance(t);
});

afterAll(async () => {
  await b?.close();
  await t?.close();
});

let counter = 0;

/** A site manager of site a1, signed in on A; the same token is then used on B, whose cache keeps it. */
async function cachedOnB(): Promise<{ id: string; email: string; onA: ApiClient; onB: ApiClient }> {
  const email = `cached.${++counter}@test.io`;
  const user = await createUser(t.db, {
    email,
    role: ROLES.site_manager,
    customerId: w.customers.a.id,
    siteIds: [w.sites.a1.id],
    firstname: 'Cass',
    lastname: `Cached${counter}`,
  });
  const onA = await new ApiClient(t.app).login(email);
  const onB = new ApiClient(b.app);
  onB.token = onA.token;
  expect((await onB.get('/v1/users/me')).statusCode).toBe(200);
  const hits = b.services.auth.cache.hits;
  expect((await onB.get('/v1/users/me')).statusCode).toBe(200);
  // The second request was answered from B's cache: what follows tests its invalidation.
  expect(b.services.auth.cache.hits).toBe(hits + 1);
  return { id: user.id, email, onA, onB };
}

const siteManagers = () => `/v1/customers/${w.customers.a.id}/site_managers`;
const siteA1 = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}/info`;

describe('sessions cached by each instance', () => {
  let cmA: ApiClient;
  beforeAll(async () => {
    cmA = await new ApiClient(t.app).login('cm.a@test.io');
  });

  it('a logout on one instance ends the session on the other at its next request', async () => {
    const user = await cachedOnB();
    expect((await user.onA.post('/v1/users/logout', {})).statusCode).toBe(204);
    expect((await user.onB.get('/v1/users/me')).statusCode).toBe(401);
  });

  it('a password change on one instance ends the other sessions on the other at their next request', async () => {
    const user = await cachedOnB();
    const other = await new ApiClient(t.app).login(user.email);
    const otherOnB = new ApiClient(b.app);
    otherOnB.token = other.token;
    expect((await otherOnB.get('/v1/users/me')).statusCode).toBe(200);
    const res = await user.onA.put('/v1/users/update_password', {
      current_password: PASSWORD,
      password: 'another-horse-2',
    });
    expect(res.statusCode).toBe(200);
    expect((await otherOnB.get('/v1/users/me')).statusCode).toBe(401);
    // The session that changed the password goes on, on both instances.
    expect((await user.onB.get('/v1/users/me')).statusCode).toBe(200);
  });

  it('a change of sites or permissions on one instance applies on the other at the next request', async () => {
    const user = await cachedOnB();
    expect((await user.onB.get(siteA1())).statusCode).toBe(200);
    const res = await cmA.put(`${siteManagers()}/${user.id}/update`, {
      site_id: [w.sites.a2.id],
      permissions: { 'valves.control': 'denied' },
    });
    expect(res.statusCode).toBe(200);
    expect((await user.onB.get(siteA1())).statusCode).toBe(403);
    const me = (await user.onB.get('/v1/users/me')).json<{ site_id: string[]; permissions: object }>();
    expect(me.site_id).toEqual([w.sites.a2.id]);
    expect(me.permissions).toMatchObject({ 'valves.control': 'denied' });
  });

  it('a deletion on one instance ends the user on the other at its next request', async () => {
    const user = await cachedOnB();
    const res = await cmA.delete(`${siteManagers()}/${user.id}/delete`, {
      confirm_name: `Cass Cached${counter}`,
    });
    expect(res.statusCode).toBe(204);
    expect((await user.onB.get('/v1/users/me')).statusCode).toBe(401);
  });

  it('a change by any path, straight in the database, reaches both instances', async () => {
    const user = await cachedOnB();
    expect((await user.onA.get('/v1/users/me')).statusCode).toBe(200);
    // A site deletion cascades to user_sites, which no service code sees: the trigger does.
    await t.db.execute(sql`DELETE FROM user_sites WHERE user_id = ${user.id}`);
    expect((await user.onB.get(siteA1())).statusCode).toBe(403);
    expect((await user.onA.get(siteA1())).statusCode).toBe(403);
  });
});

describe.runIf(process.env.FLOWBOX_TEST_PG)('sessions cached on PostgreSQL', () => {
  it('forgets every session when its listening connection drops, and caches again once it listens', async () => {
    const user = await cachedOnB();
    const other = await cachedOnB();
    // Every instance's listening connection on this database, B's among them.
    await t.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    await until(() => !b.services.live.listening, 5000);
    expect(b.services.auth.cache.size).toBe(0);
    // Revoked while B cannot hear it: B must not answer from what it knew before.
    await t.db.execute(sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${user.id}`);
    expect((await user.onB.get('/v1/users/me')).statusCode).toBe(401);
    await until(() => b.services.live.listening, 10_000);
    const hits = b.services.auth.cache.hits;
    expect((await other.onB.get('/v1/users/me')).statusCode).toBe(200);
    expect((await other.onB.get('/v1/users/me')).statusCode).toBe(200);
    expect(b.services.auth.cache.hits).toBe(hits + 1);
  });
});

describe('the sessions cache itself', () => {
  const clock = new TestClock();
  const limits = { maxSessions: 2, maxTokens: 2, ttlMs: 10_000 };
  const claims = (n: number) => ({ userId: `user-${n}`, sessionId: `session-${n}` });
  const value = (n: number) => {
    const user = {
      id: `user-${n}`,
      firstname: 'Ada',
      lastname: 'Cached',
      role: ROLES.site_manager,
      customerId: null,
      language: 'en',
      permissions: {},
    } as unknown as UserRow;
    return { actor: makeActor(user, [], `session-${n}`), user, siteIds: [] };
  };
  const trustedCache = () => {
    const cache = new SessionCache(clock.now, limits);
    cache.trust(true);
    return cache;
  };

  it('does not keep a lookup that began before a change to any user was heard', () => {
    const cache = trustedCache();
    const version = cache.version;
    cache.forgetUser('someone-else');
    cache.rememberSession(claims(1), value(1), version);
    expect(cache.sessionUser(claims(1))).toBeUndefined();
    cache.rememberSession(claims(1), value(1), cache.version);
    expect(cache.sessionUser(claims(1))?.actor.id).toBe('user-1');
  });

  it('keeps nothing while it does not hear the changes, and forgets all when it stops', () => {
    const cache = trustedCache();
    cache.rememberSession(claims(1), value(1), cache.version);
    cache.trust(false);
    expect(cache.size).toBe(0);
    cache.rememberSession(claims(1), value(1), cache.version);
    expect(cache.sessionUser(claims(1))).toBeUndefined();
  });

  it('looks a session up again after its time to live, and drops the least recently used first', () => {
    const cache = trustedCache();
    cache.rememberSession(claims(1), value(1), cache.version);
    cache.rememberSession(claims(2), value(2), cache.version);
    expect(cache.sessionUser(claims(1))).toBeDefined();
    cache.rememberSession(claims(3), value(3), cache.version);
    expect(cache.sessionUser(claims(2))).toBeUndefined();
    expect(cache.sessionUser(claims(1))).toBeDefined();
    clock.advance(limits.ttlMs);
    expect(cache.sessionUser(claims(1))).toBeUndefined();
  });

  it('never answers a session for another user than the token names', () => {
    const cache = trustedCache();
    cache.rememberSession(claims(1), value(1), cache.version);
    expect(cache.sessionUser({ userId: 'user-2', sessionId: 'session-1' })).toBeUndefined();
  });

  it('forgets a verified token at its expiry', () => {
    const cache = trustedCache();
    cache.rememberToken('token', claims(1), clock.now().getTime() + 1000);
    expect(cache.claimsOf('token')).toEqual(claims(1));
    clock.advance(1000);
    expect(cache.claimsOf('token')).toBeUndefined();
  });
});
