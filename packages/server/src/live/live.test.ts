import { ROLES, type LiveMessage } from '@flowbox/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance } from '../test/instances.ts';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { newSecret, subscribe, uniqueSerial, until } from '../flowboxes/testing.ts';
import {
  ApiClient,
  buildingBody,
  createUser,
  createWorldApp,
  loginAs,
  zoneBody,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { LiveHub } from './live.ts';
import { LIVE_CHANNEL } from './live.repo.ts';
import { MAX_LIVE_STREAMS_PER_USER } from './live.routes.ts';
import {
  freezingProxy,
  jsonBody,
  listenLocally,
  liveTicket,
  openLiveStream,
  requestLiveStream,
  serialsIn,
} from './testing.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let cmB: ApiClient;
let base: string;
const zones = { a: '', a2: '', b: '' };
const zoneIdOf = (zonePath: string) => zonePath.split('/').at(-1)!;

async function zoneIn(client: ApiClient, customerId: string, siteId: string): Promise<string> {
  const site = `/v1/customers/${customerId}/sites/${siteId}`;
  const building = (await client.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const zoneId = (await client.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json()
    .id as string;
  await subscribe(t, zoneId);
  return `${site}/buildings/${building}/zones/${zoneId}`;
}

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  cmB = await loginAs(t.app, 'cm.b@test.io');
  zones.a = await zoneIn(cmA, w.customers.a.id, w.sites.a1.id);
  zones.a2 = await zoneIn(cmA, w.customers.a.id, w.sites.a1.id);
  zones.b = await zoneIn(cmB, w.customers.b.id, w.sites.b1.id);
  base = await listenLocally(t);
});
afterAll(() => t.close());

describe('the live channel (DESIGN.md §6)', () => {
  it('pushes flowbox changes within a second, only to those who may see them', async () => {
    const a = await openLiveStream(base, cmA);
    const b = await openLiveStream(base, cmB);
    expect(a.response.statusCode).toBe(200);
    expect(a.response.headers['content-type']).toContain('text/event-stream');
    const serialA = uniqueSerial();
    const serialB = uniqueSerial();
    const started = Date.now();
    await cmA.post(`${zones.a}/flowboxes/pair`, { serial: serialA, factory_secret: newSecret() });
    await until(() => serialsIn(a.received).includes(serialA), 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    await cmB.post(`${zones.b}/flowboxes/pair`, { serial: serialB, factory_secret: newSecret() });
    await until(() => serialsIn(b.received).includes(serialB), 1000);
    // B's stream has seen B's change, which came after A's: A's never reached it.
    expect(serialsIn(b.received)).not.toContain(serialA);
    expect(serialsIn(a.received)).not.toContain(serialB);
    a.close();
    b.close();
  });

  it('counts the streams open on the instance in its metrics (flowbox_live_connections)', async () => {
    const open = async () =>
      Number(/^flowbox_live_connections (\d+)$/m.exec(await t.services.metrics.scrape())?.[1]);
    // The earlier tests' streams, closed by their clients, end on the server soon after.
    await until(async () => (await open()) === 0, 5000);
    const stream = await openLiveStream(base, cmA);
    await until(async () => (await open()) === 1, 5000);
    stream.close();
    await until(async () => (await open()) === 0, 5000);
  });

  it('refuses a stream without a valid ticket', async () => {
    const response = await requestLiveStream(base, 'forged');
    expect(response.statusCode).toBe(401);
    response.destroy();
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/live/ticket' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('reaches a second server instance on the same database (LISTEN/NOTIFY)', async () => {
    const second = await secondInstance(t);
    const received: LiveMessage[] = [];
    second.services.live.subscribe((message) => received.push(message));
    const serial = uniqueSerial();
    await cmA.post(`${zones.a}/flowboxes/pair`, { serial, factory_secret: newSecret() });
    await until(() => serialsIn(received).includes(serial), 2000);
    await second.close();
  });
});

describe('a stream follows its session and scope as requests do (docs/permissions.md)', () => {
  let counter = 0;
  /** A new end user of customer A's zone given by its path, signed in. */
  async function endUserOf(zonePath: string): Promise<{ id: string; name: string; client: ApiClient }> {
    const email = `resident.${++counter}@test.io`;
    const user = await createUser(t.db, {
      email,
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zoneIdOf(zonePath)],
      firstname: 'Rita',
      lastname: `Resident${counter}`,
    });
    return { id: user.id, name: `Rita Resident${counter}`, client: await loginAs(t.app, email) };
  }
  const endUsers = () => `/v1/customers/${w.customers.a.id}/end_users`;
  const pair = (zonePath: string, serial: string) =>
    cmA.post(`${zonePath}/flowboxes/pair`, { serial, factory_secret: newSecret() });

  it('ends at once after a logout, on this instance and on another', async () => {
    const second = await secondInstance(t);
    try {
      const resident = await endUserOf(zones.a);
      const onB = new ApiClient(second.app);
      onB.token = resident.client.token;
      const here = await openLiveStream(base, resident.client);
      const there = await openLiveStream(await listenLocally(second), onB);
      expect([here.response.statusCode, there.response.statusCode]).toEqual([200, 200]);
      expect((await resident.client.post('/v1/users/logout', {})).statusCode).toBe(204);
      await until(() => here.ended() && there.ended(), 2000);
    } finally {
      await second.close();
    }
  });

  it('ends at once when its end user is deleted', async () => {
    const resident = await endUserOf(zones.a);
    const stream = await openLiveStream(base, resident.client);
    const deleted = await cmA.delete(`${endUsers()}/${resident.id}/delete`, { confirm_name: resident.name });
    expect(deleted.statusCode).toBe(204);
    await until(() => stream.ended(), 2000);
    const serial = uniqueSerial();
    await pair(zones.a, serial);
    expect(serialsIn(stream.received)).not.toContain(serial);
  });

  it('ends at once when its end user is suspended', async () => {
    const resident = await endUserOf(zones.a);
    const stream = await openLiveStream(base, resident.client);
    const suspended = await cmA.put(`${endUsers()}/${resident.id}/update`, { suspended: true });
    expect(suspended.statusCode).toBe(200);
    await until(() => stream.ended(), 2000);
  });

  it('carries the new zone and no longer the old one once its end user is moved, on another instance too', async () => {
    const second = await secondInstance(t);
    try {
      const resident = await endUserOf(zones.a);
      const onB = new ApiClient(second.app);
      onB.token = resident.client.token;
      const here = await openLiveStream(base, resident.client, 'flowbox');
      const there = await openLiveStream(await listenLocally(second), onB, 'flowbox');
      const before = uniqueSerial();
      await pair(zones.a, before);
      await until(() => [here, there].every((s) => serialsIn(s.received).includes(before)), 2000);
      const moved = await cmA.put(`${endUsers()}/${resident.id}/update`, { zone_id: [zoneIdOf(zones.a2)] });
      expect(moved.statusCode).toBe(200);
      const old = uniqueSerial();
      const now = uniqueSerial();
      await pair(zones.a, old);
      await pair(zones.a2, now);
      await until(() => [here, there].every((s) => serialsIn(s.received).includes(now)), 2000);
      for (const stream of [here, there]) {
        expect(serialsIn(stream.received)).not.toContain(old);
        expect(stream.ended()).toBe(false);
        stream.close();
      }
    } finally {
      await second.close();
    }
  });

  it('opens one stream per ticket: a ticket used again is refused as an expired one', async () => {
    const ticket = await liveTicket(cmA);
    const first = await requestLiveStream(base, ticket);
    expect(first.statusCode).toBe(200);
    const again = await requestLiveStream(base, ticket);
    expect(again.statusCode).toBe(401);
    expect(await jsonBody(again)).toMatchObject({ code: 'errors.auth_expired' });
    first.destroy();
    // Nor is a ticket a Bearer token for the rest of the API.
    const asToken = await t.app.inject({
      url: '/v1/users/me',
      headers: { authorization: `Bearer ${ticket}` },
    });
    expect(asToken.statusCode).toBe(401);
  });

  it(`refuses a user's stream beyond ${MAX_LIVE_STREAMS_PER_USER} open at once, in the caller's language`, async () => {
    const resident = await endUserOf(zones.a);
    const streams = [];
    for (let i = 0; i < MAX_LIVE_STREAMS_PER_USER; i++)
      streams.push(await openLiveStream(base, resident.client));
    expect(streams.map((s) => s.response.statusCode)).toEqual(Array(MAX_LIVE_STREAMS_PER_USER).fill(200));
    const refused = await requestLiveStream(base, await liveTicket(resident.client));
    expect(refused.statusCode).toBe(429);
    expect(await jsonBody(refused)).toMatchObject({
      code: 'errors.live_streams_limit',
      message: `Too many live connections for this account (${MAX_LIVE_STREAMS_PER_USER} at most): close another tab or window and try again`,
    });
    const fr = await requestLiveStream(base, await liveTicket(resident.client), { 'accept-language': 'fr' });
    expect(fr.statusCode).toBe(429);
    expect(await jsonBody(fr)).toMatchObject({
      message: `Trop de connexions en direct pour ce compte (${MAX_LIVE_STREAMS_PER_USER} au plus) : fermez un autre onglet ou une autre fenêtre et réessayez`,
    });
    // Another user is not held back; and one stream closed makes room again.
    const other = await openLiveStream(base, cmA);
    expect(other.response.statusCode).toBe(200);
    other.close();
    streams.pop()!.close();
    await until(async () => {
      const again = await requestLiveStream(base, await liveTicket(resident.client));
      again.destroy();
      return again.statusCode === 200;
    }, 2000);
    for (const stream of streams) stream.close();
  });
});

describe.runIf(process.env.FLOWBOX_TEST_PG)('live updates on PostgreSQL', () => {
  it('listen on a connection beside the pool, and listen again when it is cut', async () => {
    const url = (t.db as { $client?: pg.Pool }).$client!.options.connectionString!;
    const small = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 1 });
    const hub = new LiveHub(small.db, { warn: () => undefined });
    const received: unknown[] = [];
    hub.subscribe((message) => received.push(message));
    try {
      await hub.start();
      // The pool's one connection still answers: LISTEN did not take it.
      await small.db.execute(sql`SELECT 1`);
      await small.db.execute(
        sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
      );
      await until(async () => {
        await small.db.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, '{"type":"ping"}')`);
        return received.length > 0;
      }, 10_000);
    } finally {
      await hub.close();
      await small.close();
    }
  });

  it('counts a listening connection that stops answering (no FIN, no RST) as lost: not ready, requests not held, listening again', async () => {
    const proxy = await freezingProxy(t.databaseUrl!);
    const other = await secondInstance(t, { databaseUrl: proxy.url });
    const ready = async () => (await other.app.inject({ url: '/v1/health/ready' })).statusCode;
    const me = async () => {
      const started = Date.now();
      const response = await other.app.inject({
        url: '/v1/users/me',
        headers: { authorization: `Bearer ${cmA.token}` },
      });
      expect(response.statusCode).toBe(200);
      return Date.now() - started;
    };
    try {
      expect(await ready()).toBe(200);
      await me();
      proxy.freezeListening();
      // Found by the instance itself (its own round trips), without a request to wait on it.
      await until(async () => (await ready()) === 503, 15_000);
      const answer = (await other.app.inject({ url: '/v1/health/ready' })).json();
      expect(answer.details).toContainEqual({ path: 'notifications', message: 'disconnected' });
      // Not heard: every request looks its session up at once, none waits for a round trip.
      for (let i = 0; i < 5; i++) expect(await me()).toBeLessThan(1000);
      proxy.thaw();
      await until(async () => (await ready()) === 200, 20_000);
      const hits = other.services.auth.cache.hits;
      await me();
      await me();
      expect(other.services.auth.cache.hits).toBeGreaterThan(hits);
    } finally {
      await other.close();
      await proxy.close();
    }
  }, 60_000);

  it('a round trip sent after a request arrived serves it again; one sent before it does not', async () => {
    const hub = new LiveHub(t.db, { warn: () => undefined });
    try {
      await hub.start();
      const arrived = hub.mark();
      // Another caller's round trip (the request's authentication), sent after the arrival.
      await hub.heard();
      expect(hub.mark()).toBe(arrived + 1);
      await hub.heardSince(arrived);
      expect(hub.mark()).toBe(arrived + 1);
      // A request arriving now needs a round trip of its own.
      await hub.heardSince(hub.mark());
      expect(hub.mark()).toBe(arrived + 2);
    } finally {
      await hub.close();
    }
  });
});
