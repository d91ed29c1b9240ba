import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../test/harness.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type TestApp,
  type World,
  siteManagerWithout,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let building: string;
let buildingId: string;

const BUILDING_HOURS = { monday: [{ start: '08:00', end: '18:00' }] };

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  [cmA, smA] = await Promise.all([loginAs(t.app, 'cm.a@test.io'), loginAs(t.app, 'sm.a@test.io')]);
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const created = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({
      opening_hours: BUILDING_HOURS,
      price_per_unit: '4.25',
      currency: 'EUR',
      volume_unit: 'liter',
    }),
  );
  buildingId = created.json().id;
  building = `${site}/buildings/${buildingId}`;
});
afterAll(() => t.close());

const week = (monday: { start: string; end: string }[]) => ({
  monday,
  tuesday: [],
  wednesday: [],
  thursday: [],
  friday: [],
  saturday: [],
  sunday: [],
});

describe('zones', () => {
  it('are created with every field of spec §3, defaults for the rest', async () => {
    const res = await smA.post(`${building}/zones/create`, zoneBody({ occupants: 4, water_point_number: 6 }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      customer_id: w.customers.a.id,
      site_id: w.sites.a1.id,
      building_id: buildingId,
      floor_id: null,
      name: 'Ground floor toilets',
      profile: 'sanitary',
      service_level: 'basic',
      occupants: 4,
      water_point_number: 6,
      water_point_count: 0,
      scheduled_closing_authorised: false,
      leak_detection_mode: false,
      maintenance_mode: false,
      valve_state: 'opened',
      flowbox_model: 'one_inch_v1',
      water_temperature: 'cold',
      currency: 'EUR',
      volume_unit: 'liter',
    });
    expect((await cmA.get(`${building}/info`)).json().zone_count).toBe(1);
  });

  it("follow the building's opening hours and price until they have their own", async () => {
    const zone = (
      await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Kitchen', profile: 'kitchen' }))
    ).json();
    expect(zone).toMatchObject({
      opening_hours: null,
      effective_opening_hours: week(BUILDING_HOURS.monday),
      price_per_unit: null,
      effective_price_per_unit: '4.25',
    });
    const own = { monday: [{ start: '06:00', end: '10:00' }] };
    const updated = await cmA.put(`${building}/zones/${zone.id}/update`, {
      opening_hours: own,
      price_per_unit: '5.5',
    });
    expect(updated.json()).toMatchObject({
      opening_hours: week(own.monday),
      effective_opening_hours: week(own.monday),
      price_per_unit: '5.5',
      effective_price_per_unit: '5.5',
    });
    // The building changes: the zone keeps its own values.
    await cmA.put(`${building}/update`, { price_per_unit: '9' });
    expect((await cmA.get(`${building}/zones/${zone.id}/info`)).json().effective_price_per_unit).toBe('5.5');
    // Back to the building's.
    const back = await cmA.put(`${building}/zones/${zone.id}/update`, {
      opening_hours: null,
      price_per_unit: null,
    });
    expect(back.json()).toMatchObject({
      opening_hours: null,
      effective_opening_hours: week(BUILDING_HOURS.monday),
      price_per_unit: null,
      effective_price_per_unit: '9',
    });
  });

  it('lie on a floor of their own building only', async () => {
    const floor = (await cmA.post(`${building}/floors/create`, { label: 'Roof' })).json();
    const otherSite = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}`;
    const other = (await cmA.post(`${otherSite}/buildings/create`, buildingBody({ name: 'Other' }))).json();
    const foreignFloor = (
      await cmA.post(`${otherSite}/buildings/${other.id}/floors/create`, { label: 'Foreign' })
    ).json();
    const ok = await cmA.post(
      `${building}/zones/create`,
      zoneBody({ name: 'Roof tank', floor_id: floor.id }),
    );
    expect(ok.json().floor_id).toBe(floor.id);
    const refused = await cmA.post(
      `${building}/zones/create`,
      zoneBody({ name: 'Lost', floor_id: foreignFloor.id }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([{ path: 'floor_id', message: 'Please select an option' }]);
  });

  it('switch maintenance and leak-detection modes only with valves.control', async () => {
    const zone = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Modes' }))).json();
    const on = await smA.put(`${building}/zones/${zone.id}/update`, { maintenance_mode: true });
    expect(on.json().maintenance_mode).toBe(true);
    const session = await siteManagerWithout(t, w, 'sm.novalves@test.io', 'valves.control');
    const refused = await session.put(`${building}/zones/${zone.id}/update`, { leak_detection_mode: true });
    expect(refused.statusCode).toBe(403);
    const rename = await session.put(`${building}/zones/${zone.id}/update`, { name: 'Modes renamed' });
    expect(rename.statusCode).toBe(200);
    expect((await cmA.get(`${building}/zones/${zone.id}/info`)).json().leak_detection_mode).toBe(false);
  });

  it('never take a valve state from the API: the device reports it', async () => {
    const zone = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Valve' }))).json();
    const res = await cmA.put(`${building}/zones/${zone.id}/update`, { valve_state: 'closed' });
    expect(res.json().valve_state).toBe('opened');
  });

  it('are listed by name and deleted with their name typed, water points included', async () => {
    const list = await smA.get(`${building}/zones/list`);
    const names = list.json().items.map((z: { name: string }) => z.name);
    expect(names).toEqual([...names].sort());
    const zone = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Short-lived' }))).json();
    await cmA.post(`${building}/zones/${zone.id}/water_points/create`, { label: 'Tap', type: 'sink' });
    const wrong = await cmA.delete(`${building}/zones/${zone.id}/delete`, { confirm_name: 'Short' });
    expect(wrong.json().code).toBe('errors.names_mismatch');
    expect(
      (await cmA.delete(`${building}/zones/${zone.id}/delete`, { confirm_name: 'Short-lived' })).statusCode,
    ).toBe(204);
    expect((await cmA.get(`${building}/zones/${zone.id}/info`)).statusCode).toBe(404);
    expect((await cmA.get(`${building}/zones/${zone.id}/water_points/list`)).statusCode).toBe(404);
  });
});

describe("a customer's zone directory", () => {
  it('lists the zones of every site a user may see, with their building and site, in hierarchy order', async () => {
    const otherSite = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}`;
    const other = (await cmA.post(`${otherSite}/buildings/create`, buildingBody({ name: 'Annex' }))).json();
    await cmA.post(
      `${otherSite}/buildings/${other.id}/zones/create`,
      zoneBody({ name: 'Annex boiler room' }),
    );
    const directory = `/v1/customers/${w.customers.a.id}/zones/list`;

    const all = (await cmA.get(directory)).json();
    expect(all.items.map((z: { site_id: string }) => z.site_id)).toContain(w.sites.a2.id);
    expect(all.total).toBe(all.items.length);
    const annex = all.items.find((z: { name: string }) => z.name === 'Annex boiler room');
    expect(annex).toMatchObject({ building_id: other.id, building_name: 'Annex', site_id: w.sites.a2.id });
    const order = all.items.map((z: { site_name: string; building_name: string; name: string }) =>
      [z.site_name, z.building_name, z.name].join(' / '),
    );
    expect(order).toEqual([...order].sort((a: string, b: string) => a.localeCompare(b)));

    // The site manager of a1 sees a1's zones only, and may not ask for a2's.
    const own = (await smA.get(directory)).json();
    expect(own.items.length).toBeGreaterThan(0);
    expect(own.items.every((z: { site_id: string }) => z.site_id === w.sites.a1.id)).toBe(true);
    expect((await smA.get(`${directory}?site_id=${w.sites.a2.id}`)).statusCode).toBe(403);

    const searched = (await cmA.get(`${directory}?search=boiler&site_id=${w.sites.a2.id}`)).json();
    expect(searched.items.map((z: { name: string }) => z.name)).toEqual(['Annex boiler room']);
  });
});

describe('water points', () => {
  it('are created, listed by label, updated and deleted with their label typed', async () => {
    const zone = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Bathrooms' }))).json();
    const base = `${building}/zones/${zone.id}/water_points`;
    const shower = await smA.post(`${base}/create`, {
      label: 'Shower 1',
      type: 'shower',
      location: '2nd floor, room 204',
      nominal_flow_lpm: '9.50',
    });
    expect(shower.statusCode, shower.body).toBe(201);
    expect(shower.json()).toMatchObject({
      zone_id: zone.id,
      label: 'Shower 1',
      type: 'shower',
      location: '2nd floor, room 204',
      nominal_flow_lpm: '9.5',
    });
    await smA.post(`${base}/create`, { label: 'Bath', type: 'bathtube' });
    const list = await cmA.get(`${base}/list`);
    expect(list.json().items.map((p: { label: string }) => p.label)).toEqual(['Bath', 'Shower 1']);
    expect((await cmA.get(`${building}/zones/${zone.id}/info`)).json().water_point_count).toBe(2);

    const updated = await smA.put(`${base}/${shower.json().id}/update`, {
      nominal_flow_lpm: null,
      type: 'sink',
    });
    expect(updated.json()).toMatchObject({ nominal_flow_lpm: null, type: 'sink', label: 'Shower 1' });
    const wrong = await smA.delete(`${base}/${shower.json().id}/delete`, { confirm_name: 'Shower' });
    expect(wrong.statusCode).toBe(400);
    expect(
      (await smA.delete(`${base}/${shower.json().id}/delete`, { confirm_name: 'Shower 1' })).statusCode,
    ).toBe(204);
    expect((await cmA.get(`${base}/list`)).json().total).toBe(1);
  });

  it('take a nominal flow as an exact decimal string, never a float, and above 0', async () => {
    const zone = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Flows' }))).json();
    const base = `${building}/zones/${zone.id}/water_points`;
    for (const [flow, message] of [
      [6.5, 'Please enter a number with at most 4 decimals, such as 2.5'],
      ['1.23456', 'Please enter a number with at most 4 decimals, such as 2.5'],
      ['0', 'Must be greater than 0'],
    ] as const) {
      const res = await cmA.post(`${base}/create`, { label: 'Tap', type: 'sink', nominal_flow_lpm: flow });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: 'nominal_flow_lpm', message }]);
    }
    expect((await cmA.get(`${base}/list`)).json().total).toBe(0);
  });
});
