import type { LiveMessage } from '@flowbox/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance } from '../test/instances.ts';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { newSecret, subscribe, uniqueSerial, until } from '../flowboxes/testing.ts';
import {
  buildingBody,
  createWorldApp,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { LiveHub } from './live.ts';
import { LIVE_CHANNEL } from './live.repo.ts';
import { freezingProxy, listenLocally, openLiveStream, requestLiveStream, serialsIn } from './testing.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let cmB: ApiClient;
let base: string;
const zones = { a: '', b: '' };

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
