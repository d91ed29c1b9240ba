import { randomUUID } from 'node:crypto';
import type { Zone } from '@flowbox/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../flowboxes/testing.ts';
import { makeActor } from '../access/access.ts';
import { HeardCache } from '../live/index.ts';
import { ZonesService } from './zones.service.ts';
import {
  ApiClient,
  buildingBody,
  createWorldApp,
  TestClock,
  zoneBody,
  type TestApp,
} from '../test/harness.ts';
import { secondInstance, type SecondInstance } from '../test/instances.ts';
import type { World } from '../test/harness.ts';

// Two instances on one database (as in auth/session-cache.test.ts): instance A, or the database
// itself, makes each change; instance B, which has the zone's overview in its cache, must answer
// the change at the very next request (docs/decisions.md "Zone overviews cached per instance").
let t: TestApp;
let w: World;
let cmA: ApiClient;
let b: SecondInstance;
let onB: ApiClient;

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  b = await secondInstance(t);
  onB = new ApiClient(b.app);
  onB.token = cmA.token;
});

afterAll(async () => {
  await b?.close();
  await t?.close();
});

type Place = { building: string; buildingId: string; zone: string; zoneId: string };

/** A building and a zone in site a1, whose overview B has just answered from its cache. */
async function cachedOnB(): Promise<Place> {
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const buildingId = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const building = `${site}/buildings/${buildingId}`;
  const zoneId = (await cmA.post(`${building}/zones/create`, zoneBody())).json().id as string;
  const zone = `${building}/zones/${zoneId}`;
  expect((await onB.get(`${zone}/info`)).statusCode).toBe(200);
  const hits = b.services.zones.overviewHits;
  expect((await onB.get(`${zone}/info`)).statusCode).toBe(200);
  // The second request was answered from B's cache: what follows tests its invalidation.
  expect(b.services.zones.overviewHits).toBe(hits + 1);
  return { building, buildingId, zone, zoneId };
}

/**
 * A client of B with a session B has not seen, made before the change: at its first request B
 * looks that session up in the database, so no round trip of B's sessions' cache makes B hear the
 * change; the overviews' cache must see to it itself.
 */
async function freshOnB(): Promise<ApiClient> {
  const fresh = new ApiClient(b.app);
  fresh.token = (await new ApiClient(t.app).login('cm.a@test.io')).token;
  return fresh;
}

const overviewOn = async (reader: ApiClient, place: Place) => {
  const res = await reader.get(`${place.zone}/info`);
  expect(res.statusCode).toBe(200);
  return res.json<Zone>();
};

describe('zone overviews cached by each instance', () => {
  it("a zone's change on one instance is answered by the other at its next request", async () => {
    const place = await cachedOnB();
    const reader = await freshOnB();
    expect((await cmA.put(`${place.zone}/update`, { name: 'Renamed on A' })).statusCode).toBe(200);
    expect((await overviewOn(reader, place)).name).toBe('Renamed on A');
  });

  it("a building's price or opening hours change reaches the overviews of its zones", async () => {
    const place = await cachedOnB();
    const reader = await freshOnB();
    const res = await cmA.put(`${place.building}/update`, { price_per_unit: '7.25' });
    expect(res.statusCode).toBe(200);
    expect((await overviewOn(reader, place)).effective_price_per_unit).toBe('7.25');
  });

  it('a water point added or removed changes the count at the next request', async () => {
    const place = await cachedOnB();
    const [reader, another] = [await freshOnB(), await freshOnB()];
    const point = await cmA.post(`${place.zone}/water_points/create`, { label: 'Sink', type: 'sink' });
    expect(point.statusCode).toBe(201);
    expect((await overviewOn(reader, place)).water_point_count).toBe(1);
    await t.db.execute(sql`DELETE FROM water_points WHERE zone_id = ${place.zoneId}`);
    expect((await overviewOn(another, place)).water_point_count).toBe(0);
  });

  it("a device's state, mirrored straight in the database, is answered at once", async () => {
    const place = await cachedOnB();
    const reader = await freshOnB();
    // The ingest path writes the valve state with no service code around it: the trigger sees it.
    await t.db.execute(sql`UPDATE zones SET valve_state = 'closed' WHERE id = ${place.zoneId}`);
    expect((await overviewOn(reader, place)).valve_state).toBe('closed');
  });

  it('a zone deleted by a cascade is not found at the next request, nor under another building', async () => {
    const place = await cachedOnB();
    const reader = await freshOnB();
    const elsewhere = place.zone.replace(place.buildingId, randomUUID());
    expect((await onB.get(`${elsewhere}/info`)).statusCode).toBe(404);
    await t.db.execute(sql`DELETE FROM buildings WHERE id = ${place.buildingId}`);
    expect((await reader.get(`${place.zone}/info`)).statusCode).toBe(404);
  });

  it('answers another customer 403 from the cache as from the database', async () => {
    const place = await cachedOnB();
    const cmB = new ApiClient(b.app);
    await cmB.login('cm.b@test.io');
    expect((await cmB.get(`${place.zone}/info`)).statusCode).toBe(403);
  });
});

describe.runIf(process.env.FLOWBOX_TEST_PG)('zone overviews cached on PostgreSQL', () => {
  it('forgets every overview when its listening connection drops, and caches again once it listens', async () => {
    const place = await cachedOnB();
    await t.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    await until(() => !b.services.live.listening, 5000);
    // Changed while B cannot hear it: B must not answer from what it knew before.
    await t.db.execute(sql`UPDATE zones SET name = 'Changed unheard' WHERE id = ${place.zoneId}`);
    expect((await overviewOn(onB, place)).name).toBe('Changed unheard');
    await until(() => b.services.live.listening, 10_000);
    await overviewOn(onB, place);
    const hits = b.services.zones.overviewHits;
    await overviewOn(onB, place);
    expect(b.services.zones.overviewHits).toBe(hits + 1);
  });
});

describe('an overview answered from the cache', () => {
  it('waits until every change committed before its request arrived has been heard', async () => {
    // Notifications whose round trip this test answers: a change's notification arrives while the
    // request waits for it, as it does from PostgreSQL (deterministic here, a race there).
    const cache = new HeardCache<Zone>(Date.now, { max: 10, ttlMs: 10_000 });
    cache.trust(true);
    let answer: () => void = () => undefined;
    const notifications = {
      listenTo: () => undefined,
      onHearingChange: () => () => false,
      listening: true,
      mark: () => 0,
      heard: () => new Promise<void>((resolve) => (answer = resolve)),
      heardSince: () => new Promise<void>((resolve) => (answer = resolve)),
    };
    // The zone is read, never deleted: nothing below it to remove.
    const zones = new ZonesService(t.services.context, t.services.deviceLink, async () => [], {
      cache,
      notifications,
    });
    const place = await cachedOnB();
    const [customerId, siteId, buildingId] = [w.customers.a.id, w.sites.a1.id, place.buildingId];
    const path = { customerId, siteId, buildingId, zoneId: place.zoneId };
    const actor = makeActor(w.users.cmA, [], 'session');
    expect((await zones.info(actor, path)).name).not.toBe('Changed meanwhile');
    await t.db.execute(sql`UPDATE zones SET name = 'Changed meanwhile' WHERE id = ${place.zoneId}`);
    const read = zones.info(actor, path, 0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The change's notification, then the round trip's answer.
    cache.forget(place.zoneId);
    answer();
    expect((await read).name).toBe('Changed meanwhile');
  });
});

describe('the cache itself', () => {
  const clock = new TestClock();
  const trusted = () => {
    const cache = new HeardCache<string>(() => clock.now().getTime(), { max: 3, ttlMs: 10_000 });
    cache.trust(true);
    return cache;
  };

  it('forgets an entry by its key or by any of its tags, and only those', () => {
    const cache = trusted();
    cache.remember('zone-1', 'one', ['building-1', 'site-1'], cache.version);
    cache.remember('zone-2', 'two', ['building-2', 'site-1'], cache.version);
    cache.remember('zone-3', 'three', ['building-3', 'site-2'], cache.version);
    cache.forget('building-2');
    expect([cache.get('zone-1'), cache.get('zone-2'), cache.get('zone-3')]).toEqual([
      'one',
      undefined,
      'three',
    ]);
    cache.forget('site-1');
    expect(cache.get('zone-1')).toBeUndefined();
    cache.forget('zone-3');
    expect(cache.size).toBe(0);
  });

  it('does not keep a lookup that began before something was forgotten', () => {
    const cache = trusted();
    const version = cache.version;
    cache.forget('building-9');
    cache.remember('zone-1', 'stale', ['building-1'], version);
    expect(cache.get('zone-1')).toBeUndefined();
  });

  it('drops the least recently used beyond its size, and an entry after its time to live', () => {
    const cache = trusted();
    for (const n of [1, 2, 3]) cache.remember(`zone-${n}`, `v${n}`, [`building-${n}`], cache.version);
    expect(cache.get('zone-1')).toBe('v1');
    cache.remember('zone-4', 'v4', ['building-4'], cache.version);
    expect(cache.get('zone-2')).toBeUndefined();
    // The dropped entry's tag no longer names it: forgetting it touches nobody else.
    cache.forget('building-2');
    expect(cache.size).toBe(3);
    clock.advance(10_000);
    expect(cache.get('zone-1')).toBeUndefined();
  });

  it('keeps nothing while it does not hear the changes', () => {
    const cache = trusted();
    cache.trust(false);
    cache.remember('zone-1', 'one', [], cache.version);
    expect(cache.get('zone-1')).toBeUndefined();
  });
});
