import { ROLES } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSecret, subscribe, uniqueSerial, until } from '../flowboxes/testing.ts';
import { listenLocally, openLiveStream, serialsIn } from '../live/testing.ts';
import {
  buildingBody,
  createUser,
  createWorldApp,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * The live stream tells end users and plumbers only of their own places (docs/permissions.md, the
 * "live updates" row; `mayReceive` in access/access.ts), over the stream a browser opens.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let endUser: ApiClient;
let plumber: ApiClient;
let base: string;
/** The end user's zone, the zone next door (same building of a1), and a zone of site a2. */
const zones = { own: '', nextDoor: '', otherSite: '' };

async function zoneIn(siteId: string, building?: string): Promise<{ path: string; id: string }> {
  const site = `/v1/customers/${w.customers.a.id}/sites/${siteId}`;
  const buildingId = building ?? (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id;
  const id = (await cmA.post(`${site}/buildings/${buildingId}/zones/create`, zoneBody())).json().id as string;
  await subscribe(t, id);
  return { path: `${site}/buildings/${buildingId}/zones/${id}`, id };
}

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  const own = await zoneIn(w.sites.a1.id);
  const building = own.path.split('/buildings/')[1]!.split('/')[0]!;
  const nextDoor = await zoneIn(w.sites.a1.id, building);
  const otherSite = await zoneIn(w.sites.a2.id);
  Object.assign(zones, { own: own.path, nextDoor: nextDoor.path, otherSite: otherSite.path });
  await createUser(t.db, {
    email: 'eu.live@test.io',
    role: ROLES.end_user,
    customerId: w.customers.a.id,
    zoneIds: [own.id],
  });
  await createUser(t.db, {
    email: 'pl.live@test.io',
    role: ROLES.plumber,
    customerId: w.customers.a.id,
    siteIds: [w.sites.a1.id],
  });
  [endUser, plumber] = await Promise.all([
    loginAs(t.app, 'eu.live@test.io'),
    loginAs(t.app, 'pl.live@test.io'),
  ]);
  base = await listenLocally(t);
});
afterAll(() => t.close());

/** A pairing prepared by the customer manager in the zone: one `flowbox` live message. */
async function pairIn(zone: string): Promise<string> {
  const serial = uniqueSerial();
  const res = await cmA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: newSecret() });
  expect(res.statusCode, res.body).toBe(201);
  return serial;
}

describe('the live stream of end users and plumbers (docs/permissions.md)', () => {
  it("an end user receives its zone's messages and none of the zone next door or another site", async () => {
    const stream = await openLiveStream(base, endUser);
    expect(stream.response.statusCode).toBe(200);
    const nextDoor = await pairIn(zones.nextDoor);
    const otherSite = await pairIn(zones.otherSite);
    // Messages come in order: once its own zone's later one is in, the others would have been too.
    const own = await pairIn(zones.own);
    await until(() => serialsIn(stream.received).includes(own), 2000);
    expect(serialsIn(stream.received)).not.toContain(nextDoor);
    expect(serialsIn(stream.received)).not.toContain(otherSite);
    stream.close();
  });

  it('a plumber receives the messages of its sites and none of another site', async () => {
    const stream = await openLiveStream(base, plumber);
    expect(stream.response.statusCode).toBe(200);
    const otherSite = await pairIn(zones.otherSite);
    const nextDoor = await pairIn(zones.nextDoor);
    const own = await pairIn(zones.own);
    await until(() => serialsIn(stream.received).includes(own), 2000);
    expect(serialsIn(stream.received)).toContain(nextDoor);
    expect(serialsIn(stream.received)).not.toContain(otherSite);
    stream.close();
  });
});
