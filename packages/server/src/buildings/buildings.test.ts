import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, floors, flowboxes, waterPoints, zones } from '../db/schema.ts';
import type { ApiClient } from '../test/harness.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type TestApp,
  type World,
  siteManagerWithout,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
});
afterAll(() => t.close());

const siteA1 = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
const siteA2 = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}`;
const rows = async (table: typeof buildings | typeof floors | typeof zones | typeof waterPoints) =>
  (await t.db.select({ n: count() }).from(table))[0]!.n;

async function createBuilding(client: ApiClient, site: string, overrides: Record<string, unknown> = {}) {
  const res = await client.post(`${site}/buildings/create`, buildingBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string };
}

describe('creating a building', () => {
  it('saves every field of spec §3, with the optional ones defaulted', async () => {
    const res = await cmA.post(
      `${siteA1()}/buildings/create`,
      buildingBody({
        name: '  Tower  ',
        type: 'staff-accomodation',
        country: 'ch',
        timezone: 'europe/zurich',
        currency: 'CHF',
        nbfloor: 12,
        occupants: 300,
        nbequipment: 450,
        price_per_unit: '3.1400',
        opening_hours: {
          monday: [
            { start: '13:30', end: '18:00' },
            { start: '08:00', end: '12:00' },
          ],
          saturday: [{ start: '09:00', end: '24:00' }],
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      customer_id: w.customers.a.id,
      site_id: w.sites.a1.id,
      name: 'Tower',
      type: 'staff-accomodation',
      plan: null,
      picture: null,
      address: '1 rue de la Paix',
      city: 'Paris',
      zipCode: '75002',
      country: 'CH',
      nbfloor: 12,
      occupants: 300,
      nbequipment: 450,
      timezone: 'Europe/Zurich',
      volume_unit: 'm3',
      currency: 'CHF',
      first_day_of_week: 'monday',
      weekend: ['saturday', 'sunday'],
      price_per_unit: '3.14',
      floor_count: 0,
      zone_count: 0,
    });
    expect(res.json().opening_hours).toEqual({
      monday: [
        { start: '08:00', end: '12:00' },
        { start: '13:30', end: '18:00' },
      ],
      tuesday: [],
      wednesday: [],
      thursday: [],
      friday: [],
      saturday: [{ start: '09:00', end: '24:00' }],
      sunday: [],
    });
  });

  it('is allowed to a site manager on its own site, and counted on the site', async () => {
    const before = (await smA.get(`${siteA1()}/info`)).json().building_count;
    await createBuilding(smA, siteA1(), { name: 'Site manager building', opening_hours: null });
    expect((await smA.get(`${siteA1()}/info`)).json().building_count).toBe(before + 1);
    const list = await cmA.get(`/v1/customers/${w.customers.a.id}/sites/list`);
    const a1 = list.json().items.find((s: { id: string }) => s.id === w.sites.a1.id);
    expect(a1.building_count).toBe(before + 1);
  });

  it('is refused to a site manager on a site that is not its own, and to one without buildings.manage', async () => {
    const before = await rows(buildings);
    const other = await smA.post(`${siteA2()}/buildings/create`, buildingBody());
    expect(other.statusCode).toBe(403);
    const session = await siteManagerWithout(t, w, 'sm.nobuildings@test.io', 'buildings.manage');
    expect((await session.post(`${siteA1()}/buildings/create`, buildingBody())).statusCode).toBe(403);
    expect((await session.get(`${siteA1()}/buildings/list`)).statusCode).toBe(200);
    expect(await rows(buildings)).toBe(before);
  });

  it('needs every mandatory field (spec §5)', async () => {
    const res = await cmA.post(`${siteA1()}/buildings/create`, { name: 'Half a building' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
      'type',
      'address',
      'city',
      'zipCode',
      'country',
      'timezone',
      'volume_unit',
      'currency',
      'first_day_of_week',
    ]);
  });
});

describe('reading buildings', () => {
  it('lists the buildings of a site by name, searched and paged', async () => {
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}`;
    for (const name of ['Charlie', 'Alpha', 'Bravo']) await createBuilding(provider, site, { name });
    const list = await cmA.get(`${site}/buildings/list`);
    expect(list.json().items.map((b: { name: string }) => b.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(list.json().total).toBe(3);
    expect((await cmA.get(`${site}/buildings/list?search=brav`)).json()).toMatchObject({
      total: 1,
      items: [{ name: 'Bravo' }],
    });
    expect((await cmA.get(`${site}/buildings/list?limit=1&offset=2`)).json().items[0].name).toBe('Charlie');
  });

  it('answers 404 for a building asked for under another site', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Misplaced' });
    expect((await cmA.get(`${siteA2()}/buildings/${building.id}/info`)).statusCode).toBe(404);
    expect((await cmA.get(`${siteA1()}/buildings/${building.id}/info`)).statusCode).toBe(200);
  });
});

describe('updating a building', () => {
  it('changes only the fields sent, and can clear the optional ones', async () => {
    const building = await createBuilding(cmA, siteA1(), {
      name: 'Editable',
      nbfloor: 3,
      price_per_unit: '2',
    });
    const url = `${siteA1()}/buildings/${building.id}/update`;
    const res = await smA.put(url, { city: 'Lyon', nbfloor: null, weekend: ['friday', 'saturday'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Editable',
      city: 'Lyon',
      nbfloor: null,
      price_per_unit: '2',
      weekend: ['friday', 'saturday'],
    });
  });

  it('never empties a mandatory field', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Kept whole' });
    const res = await cmA.put(`${siteA1()}/buildings/${building.id}/update`, { city: '  ', timezone: null });
    expect(res.statusCode).toBe(400);
    expect((await cmA.get(`${siteA1()}/buildings/${building.id}/info`)).json().city).toBe('Paris');
  });
});

describe('floors', () => {
  it('are added, listed in order, modified and deleted with their label typed', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Floored' });
    const base = `${siteA1()}/buildings/${building.id}/floors`;
    const ground = await smA.post(`${base}/create`, { label: 'Ground floor', occupants: 20 });
    expect(ground.statusCode, ground.body).toBe(201);
    expect(ground.json()).toMatchObject({ label: 'Ground floor', occupants: 20, building_id: building.id });
    t.clock.advance(1000);
    const first = await smA.post(`${base}/create`, { label: 'First floor' });
    expect(first.json().occupants).toBeNull();
    expect((await cmA.get(`${base}/list`)).json().items.map((f: { label: string }) => f.label)).toEqual([
      'Ground floor',
      'First floor',
    ]);
    const renamed = await smA.put(`${base}/${first.json().id}/update`, { label: 'Level 1', occupants: 8 });
    expect(renamed.json()).toMatchObject({ label: 'Level 1', occupants: 8 });
    expect((await cmA.get(`${siteA1()}/buildings/${building.id}/info`)).json().floor_count).toBe(2);

    const mismatch = await smA.delete(`${base}/${first.json().id}/delete`, { confirm_name: 'First floor' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe('errors.names_mismatch');
    expect(
      (await smA.delete(`${base}/${first.json().id}/delete`, { confirm_name: 'Level 1' })).statusCode,
    ).toBe(204);
    expect((await cmA.get(`${base}/list`)).json().total).toBe(1);
  });

  it('refuse 0 occupants: counts are at least 1 (spec §5)', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Counted' });
    const res = await cmA.post(`${siteA1()}/buildings/${building.id}/floors/create`, {
      label: 'Empty',
      occupants: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'occupants', message: 'Number must be greather or equal to 1' },
    ]);
  });

  it('when deleted, leave their zones in the building, on no floor', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Detaching' });
    const base = `${siteA1()}/buildings/${building.id}`;
    const floor = (await cmA.post(`${base}/floors/create`, { label: 'Mezzanine' })).json();
    const zone = await cmA.post(
      `${base}/zones/create`,
      zoneBody({ name: 'Mezzanine zone', floor_id: floor.id }),
    );
    expect(zone.json().floor_id).toBe(floor.id);
    await cmA.delete(`${base}/floors/${floor.id}/delete`, { confirm_name: 'Mezzanine' });
    const after = await cmA.get(`${base}/zones/${zone.json().id}/info`);
    expect(after.statusCode).toBe(200);
    expect(after.json().floor_id).toBeNull();
  });
});

describe('a floor’s paired flowboxes', () => {
  it('are the flowboxes paired on it, with their zone, not those still pairing', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Fitted' });
    const base = `${siteA1()}/buildings/${building.id}`;
    const second = (await cmA.post(`${base}/floors/create`, { label: '2nd floor' })).json();
    const third = (await cmA.post(`${base}/floors/create`, { label: '3rd floor' })).json();
    expect(second.flowboxes).toEqual([]);
    const zone = (await cmA.post(`${base}/zones/create`, zoneBody({ name: 'Kitchen' }))).json();
    const [paired] = await t.db
      .insert(flowboxes)
      .values({ serial: 'FBX-FLOOR-1', zoneId: zone.id, floorId: second.id, pairingState: 'ready' })
      .returning();
    await t.db
      .insert(flowboxes)
      .values({ serial: 'FBX-FLOOR-2', zoneId: zone.id, floorId: third.id, pairingState: 'pending' });
    const list = (await smA.get(`${base}/floors/list`)).json();
    expect(list.items).toEqual([
      expect.objectContaining({
        label: '2nd floor',
        flowboxes: [{ id: paired!.id, serial: 'FBX-FLOOR-1', zone_id: zone.id, zone_name: 'Kitchen' }],
      }),
      expect.objectContaining({ label: '3rd floor', flowboxes: [] }),
    ]);
    const renamed = await cmA.put(`${base}/floors/${second.id}/update`, { label: 'Second floor' });
    expect(renamed.json().flowboxes).toEqual([expect.objectContaining({ serial: 'FBX-FLOOR-1' })]);
  });
});

describe('deleting a building', () => {
  it('needs its name typed, and deletes nothing on a mismatch', async () => {
    const building = await createBuilding(cmA, siteA1(), { name: 'Guarded' });
    const res = await cmA.request(
      'DELETE',
      `${siteA1()}/buildings/${building.id}/delete`,
      { confirm_name: 'Guard' },
      { 'accept-language': 'fr' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'errors.names_mismatch',
      message: 'Les deux noms ne correspondent pas',
    });
    expect((await cmA.get(`${siteA1()}/buildings/${building.id}/info`)).statusCode).toBe(200);
  });

  it('deletes its floors, zones and water points with it, and nothing of other buildings', async () => {
    const keep = await createBuilding(cmA, siteA1(), { name: 'Neighbour' });
    const keepBase = `${siteA1()}/buildings/${keep.id}`;
    await cmA.post(`${keepBase}/floors/create`, { label: 'Neighbour floor' });
    const keepZone = (
      await cmA.post(`${keepBase}/zones/create`, zoneBody({ name: 'Neighbour zone' }))
    ).json();
    await cmA.post(`${keepBase}/zones/${keepZone.id}/water_points/create`, { label: 'Tap', type: 'sink' });

    const doomed = await createBuilding(cmA, siteA1(), { name: 'Doomed' });
    const base = `${siteA1()}/buildings/${doomed.id}`;
    const floor = (await cmA.post(`${base}/floors/create`, { label: 'Doomed floor' })).json();
    const zone = (
      await cmA.post(`${base}/zones/create`, zoneBody({ name: 'Doomed zone', floor_id: floor.id }))
    ).json();
    for (const label of ['WC 1', 'WC 2'])
      await cmA.post(`${base}/zones/${zone.id}/water_points/create`, { label, type: 'toilet' });

    const counts = { buildings: await rows(buildings), floors: await rows(floors), zones: await rows(zones) };
    const points = await rows(waterPoints);
    const res = await cmA.delete(`${base}/delete`, { confirm_name: ' Doomed ' });
    expect(res.statusCode, res.body).toBe(204);

    expect(await rows(buildings)).toBe(counts.buildings - 1);
    expect(await rows(floors)).toBe(counts.floors - 1);
    expect(await rows(zones)).toBe(counts.zones - 1);
    expect(await rows(waterPoints)).toBe(points - 2);
    expect(await t.db.select().from(zones).where(eq(zones.buildingId, doomed.id))).toEqual([]);
    expect(await t.db.select().from(waterPoints).where(eq(waterPoints.zoneId, zone.id))).toEqual([]);
    expect((await cmA.get(`${base}/info`)).statusCode).toBe(404);
    expect((await cmA.get(`${keepBase}/zones/${keepZone.id}/info`)).json().water_point_count).toBe(1);
  });

  it('goes with its site, and the site with its customer', async () => {
    const created = await provider.post('/v1/customers/create', { name: 'Cascade Co' });
    const customerId: string = created.json().id;
    const site = (
      await provider.post(`/v1/customers/${customerId}/sites/create`, { name: 'Cascade site' })
    ).json();
    const sitePath = `/v1/customers/${customerId}/sites/${site.id}`;
    const building = await createBuilding(provider, sitePath, { name: 'Cascade building' });
    await provider.post(`${sitePath}/buildings/${building.id}/zones/create`, zoneBody());
    await provider.delete(`${sitePath}/delete`, { confirm_name: 'Cascade site' });
    expect(await t.db.select().from(buildings).where(eq(buildings.id, building.id))).toEqual([]);
    expect(await t.db.select().from(zones).where(eq(zones.buildingId, building.id))).toEqual([]);
  });
});
