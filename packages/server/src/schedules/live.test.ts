import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowboxes } from '../db/schema.ts';
import { uniqueSerial, until } from '../flowboxes/testing.ts';
import { listenLocally, openLiveStream } from '../live/testing.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * The schedule card updates live (docs/schedules.md "Live updates"): every change of a zone's
 * scheduled closings, by a user or by the job, is pushed on the live channel to those who may read
 * the zone's site, and to no one else.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;
let base: string;

beforeAll(async () => {
  // Hours pass on the clock: sessions must outlive them.
  t = await createTestApp({ accessTokenTtl: 7 * 86400 });
  // A Wednesday at noon in Paris: that night's window is ahead.
  t.clock.advance(Date.parse('2026-12-02T12:00:00+01:00') - t.clock.now().getTime());
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  smA = await loginAs(t.app, 'sm.a@test.io');
  cmB = await loginAs(t.app, 'cm.b@test.io');
  base = await listenLocally(t);
});
afterAll(() => t.close());

async function zoneIn(siteId: string) {
  const site = `/v1/customers/${w.customers.a.id}/sites/${siteId}`;
  const building = await cmA.post(`${site}/buildings/create`, buildingBody({ timezone: 'Europe/Paris' }));
  const path = `${site}/buildings/${building.json().id}`;
  const zone = await cmA.post(
    `${path}/zones/create`,
    zoneBody({ name: `Zone ${uniqueSerial('Z')}`, scheduled_closing_authorised: true }),
  );
  return { id: zone.json().id as string, path: `${path}/zones/${zone.json().id}` };
}

const schedule = (overrides: Record<string, unknown> = {}) => ({
  label: 'Nightly closing',
  date_start: '2026-03-01',
  date_end: '2027-12-31',
  closing_time: '22:00',
  opening_time: '06:00',
  recurring: true,
  frequency: 'daily',
  interval: 1,
  ...overrides,
});

const changesOf = (received: { change: string; zone_id: string }[], zoneId: string) =>
  received.filter((m) => m.zone_id === zoneId).map((m) => m.change);

describe('live schedule messages', () => {
  it('tell every change, by users and by the job, to those who may read the site only', async () => {
    const zone = await zoneIn(w.sites.a1.id);
    await t.db
      .insert(flowboxes)
      .values({ serial: uniqueSerial(), zoneId: zone.id, pairingState: 'ready', pairedAt: t.clock.now() });
    const manager = await openLiveStream(base, cmA, 'schedule');
    const siteManager = await openLiveStream(base, smA, 'schedule');
    const other = await openLiveStream(base, cmB, 'schedule');

    const created = await cmA.post(`${zone.path}/schedules/create`, schedule());
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await until(() => changesOf(manager.received, zone.id).includes('created'));
    expect(manager.received.at(-1)).toEqual({
      type: 'schedule',
      change: 'created',
      schedule_id: id,
      customer_id: w.customers.a.id,
      site_id: w.sites.a1.id,
      building_id: expect.any(String),
      zone_id: zone.id,
    });
    const updated = await cmA.put(`${zone.path}/schedules/${id}/update`, schedule({ closing_time: '21:00' }));
    expect(updated.statusCode, updated.body).toBe(200);

    // The window starts and ends: the job's closing and opening are told too.
    t.clock.advance(10 * 3600_000);
    expect((await t.services.scheduleRunner.runDue()).closed).toBe(1);
    t.clock.advance(9 * 3600_000);
    expect((await t.services.scheduleRunner.runDue()).opened).toBe(1);

    const deleted = await cmA.delete(`${zone.path}/schedules/${id}/delete`, {
      confirm_name: 'Nightly closing',
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const all = ['created', 'updated', 'closing_started', 'closing_ended', 'deleted'];
    await until(() => changesOf(manager.received, zone.id).length === all.length);
    expect(changesOf(manager.received, zone.id)).toEqual(all);
    await until(() => changesOf(siteManager.received, zone.id).length === all.length);

    // A zone of another site of the same customer: its manager is told, the site manager of a1 not.
    const elsewhere = await zoneIn(w.sites.a2.id);
    await cmA.post(`${elsewhere.path}/schedules/create`, schedule());
    await until(() => changesOf(manager.received, elsewhere.id).includes('created'));
    // Messages come in commit order: the site manager's stream has seen everything before it.
    await cmA.post(`${zone.path}/schedules/create`, schedule({ label: 'Marker' }));
    await until(() => changesOf(siteManager.received, zone.id).length === all.length + 1);
    expect(changesOf(siteManager.received, elsewhere.id)).toEqual([]);
    expect(other.received).toEqual([]);
    for (const stream of [manager, siteManager, other]) stream.close();
  });
});
