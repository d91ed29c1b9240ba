import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, buildings, flowboxes, zones } from '../db/schema.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;
let smB: ApiClient;

beforeAll(async () => {
  t = await createTestApp({ mapTileUrl: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png' });
  w = await createWorld(t.db);
  const signIn = (email: string) => loginAs(t.app, email);
  [provider, cmA, smA, cmB, smB] = await Promise.all([
    signIn('provider@test.io'),
    signIn('cm.a@test.io'),
    signIn('sm.a@test.io'),
    signIn('cm.b@test.io'),
    signIn('sm.b@test.io'),
  ]);
});
afterAll(() => t.close());

const entry = (overrides: Record<string, unknown> = {}) => ({
  company: 'Aqua Repairs',
  contact_name: 'Paul Plomb',
  phone: '+33 1 23 45 67 89',
  email: 'Paul@Aqua.example',
  address: '3 rue du Port, Lyon',
  latitude: 45.76,
  longitude: 4.83,
  service_radius_km: 20,
  specialities: ['leak_repair', 'emergency'],
  availability: 'Weekdays 8-18, emergencies 24/7',
  ...overrides,
});

async function create(client: ApiClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/v1/plumbers/create', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const companies = async (client: ApiClient, query = '') => {
  const res = await client.get(`/v1/plumbers/list${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { company: string }[]).map((p) => p.company).sort();
};

describe('the plumber directory: who sees and manages which entries', () => {
  let shared: string;
  let ofA: string;
  let ofB: string;
  beforeAll(async () => {
    shared = await create(provider, entry({ company: 'Shared Plumbing' }));
    ofA = await create(cmA, entry({ company: 'A Plumbing', customer_id: w.customers.a.id }));
    ofB = await create(provider, entry({ company: 'B Plumbing', customer_id: w.customers.b.id }));
  });

  it('answers an entry as written, the email in lower case, its customer named', async () => {
    const res = await cmA.get(`/v1/plumbers/${ofA}/info`);
    expect(res.json()).toMatchObject({
      customer_id: w.customers.a.id,
      customer_name: 'Customer A',
      company: 'A Plumbing',
      email: 'paul@aqua.example',
      latitude: 45.76,
      longitude: 4.83,
      service_radius_km: 20,
      specialities: ['leak_repair', 'emergency'],
    });
    expect((await provider.get(`/v1/plumbers/${shared}/info`)).json().customer_name).toBeNull();
  });

  it("lists a customer's own entries and the shared ones to its managers; everything to the provider", async () => {
    expect(await companies(cmA)).toEqual(['A Plumbing', 'Shared Plumbing']);
    expect(await companies(smA)).toEqual(['A Plumbing', 'Shared Plumbing']);
    expect(await companies(cmB)).toEqual(['B Plumbing', 'Shared Plumbing']);
    expect(await companies(smB)).toEqual(['B Plumbing', 'Shared Plumbing']);
    expect(await companies(provider)).toEqual(['A Plumbing', 'B Plumbing', 'Shared Plumbing']);
    expect(await companies(provider, `?customer_id=${w.customers.b.id}`)).toEqual([
      'B Plumbing',
      'Shared Plumbing',
    ]);
    expect((await cmA.get(`/v1/plumbers/list?customer_id=${w.customers.b.id}`)).statusCode).toBe(403);
  });

  it('reads an entry of another customer as a refusal, the same as an entry that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const id of [ofB, missing]) {
      const res = await cmA.get(`/v1/plumbers/${id}/info`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('errors.forbidden');
    }
    expect((await provider.get(`/v1/plumbers/${missing}/info`)).statusCode).toBe(404);
  });

  it("lets customer managers manage their customer's entries, never the shared ones or another's", async () => {
    expect((await cmA.put(`/v1/plumbers/${ofA}/update`, { phone: '04 00 00 00 00' })).statusCode).toBe(200);
    expect((await smA.put(`/v1/plumbers/${ofA}/update`, { phone: '1234' })).statusCode).toBe(403);
    expect((await cmA.put(`/v1/plumbers/${shared}/update`, { phone: '1234' })).statusCode).toBe(403);
    expect((await cmA.put(`/v1/plumbers/${ofB}/update`, { phone: '1234' })).statusCode).toBe(403);
    expect((await cmA.post('/v1/plumbers/create', entry())).statusCode).toBe(403);
    expect((await cmA.post('/v1/plumbers/create', entry({ customer_id: w.customers.b.id }))).statusCode).toBe(
      403,
    );
    expect((await smA.post('/v1/plumbers/create', entry({ customer_id: w.customers.a.id }))).statusCode).toBe(
      403,
    );
    expect((await provider.put(`/v1/plumbers/${ofA}/update`, { availability: 'Nights' })).statusCode).toBe(
      200,
    );
    expect((await cmA.get(`/v1/plumbers/${ofA}/info`)).json()).toMatchObject({
      phone: '04 00 00 00 00',
      availability: 'Nights',
    });
  });

  it('deletes an entry once its company is typed', async () => {
    const id = await create(cmA, entry({ company: 'Gone Soon', customer_id: w.customers.a.id }));
    const wrong = await cmA.delete(`/v1/plumbers/${id}/delete`, { confirm_name: 'Gone' });
    expect(wrong.statusCode).toBe(400);
    expect((await cmB.delete(`/v1/plumbers/${id}/delete`, { confirm_name: 'Gone Soon' })).statusCode).toBe(
      403,
    );
    expect((await cmA.delete(`/v1/plumbers/${id}/delete`, { confirm_name: 'Gone Soon' })).statusCode).toBe(
      204,
    );
    expect((await cmA.get(`/v1/plumbers/${id}/info`)).statusCode).toBe(403);
  });
});

describe('searching and filtering the directory', () => {
  beforeAll(async () => {
    await create(
      cmB,
      entry({ company: 'Zeta Drains', customer_id: w.customers.b.id, specialities: ['drainage'] }),
    );
    await create(
      cmB,
      entry({
        company: 'Nowhere Pipes',
        customer_id: w.customers.b.id,
        contact_name: 'Nina Nowhere',
        latitude: null,
        longitude: null,
        specialities: [],
      }),
    );
  });

  it('finds by company, contact or address; by speciality; by owner; located or not; by pages', async () => {
    expect(await companies(cmB, '?search=nina')).toEqual(['Nowhere Pipes']);
    expect(await companies(cmB, '?search=zeta')).toEqual(['Zeta Drains']);
    expect(await companies(cmB, '?speciality=drainage')).toEqual(['Zeta Drains']);
    expect(await companies(cmB, '?owner=shared')).toEqual(['Shared Plumbing']);
    expect(await companies(cmB, '?owner=customer&located=false')).toEqual(['Nowhere Pipes']);
    const page = (await cmB.get('/v1/plumbers/list?limit=1&offset=1')).json();
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(4);
    // LIKE's wildcards are searched for as themselves.
    expect(await companies(cmB, '?search=%25')).toEqual([]);
  });
});

describe('bad input is answered 400 with the catalogue message, never stored', () => {
  it.each([
    ['no company', { company: '' }, 'company', 'This field is required'],
    ['a latitude out of range', { latitude: 91 }, 'latitude', 'Latitude must be between -90 and 90 degrees'],
    [
      'a longitude out of range',
      { longitude: -180.5 },
      'longitude',
      'Longitude must be between -180 and 180 degrees',
    ],
    [
      'a latitude without longitude',
      { longitude: undefined },
      'longitude',
      'Please give both latitude and longitude, or neither',
    ],
    ['a latitude as text', { latitude: '45.7' }, 'latitude', 'Latitude must be between -90 and 90 degrees'],
    [
      'a phone with letters',
      { phone: 'call me' },
      'phone',
      'Please enter a phone number: digits, spaces and + - . ( ) only',
    ],
    ['a wrong email', { email: 'paul@' }, 'email', 'Please enter a valid email address'],
    [
      'a speciality not in the list',
      { specialities: ['roofing'] },
      'specialities.0',
      'Please select an option',
    ],
    [
      'a speciality twice',
      { specialities: ['valves', 'valves'] },
      'specialities',
      'Each option may be chosen only once',
    ],
    [
      'a radius of 0 km',
      { service_radius_km: 0 },
      'service_radius_km',
      'Number must be greather or equal to 1',
    ],
    ['a radius too large', { service_radius_km: 5000 }, 'service_radius_km', 'Must be at most 1000'],
  ])('%s', async (_, override, path, message) => {
    const res = await cmA.post('/v1/plumbers/create', entry({ customer_id: w.customers.a.id, ...override }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toContainEqual({ path, message });
  });

  it('in French too', async () => {
    const fr = await loginAs(t.app, 'cm.a@test.io', 'fr');
    const res = await fr.post(
      '/v1/plumbers/create',
      entry({ customer_id: w.customers.a.id, latitude: -100 }),
    );
    expect(res.json().details).toContainEqual({
      path: 'latitude',
      message: 'La latitude doit être comprise entre -90 et 90 degrés',
    });
  });

  it('a malformed id or query: 400', async () => {
    expect((await cmA.get('/v1/plumbers/not-a-uuid/info')).statusCode).toBe(400);
    expect((await cmA.get('/v1/plumbers/list?speciality=roofing')).statusCode).toBe(400);
    expect((await cmA.get('/v1/plumbers/list?owner=mine')).statusCode).toBe(400);
    expect((await cmA.get('/v1/plumbers/list?limit=100000')).statusCode).toBe(400);
  });
});

describe('coordinates of sites and buildings', () => {
  const A = () => `/v1/customers/${w.customers.a.id}`;

  it('are optional, answered, set together and cleared together', async () => {
    const site = (await cmA.post(`${A()}/sites/create`, { name: 'Mapped site' })).json();
    expect(site).toMatchObject({ latitude: null, longitude: null });
    const placed = await cmA.put(`${A()}/sites/${site.id}/update`, { latitude: 48.85, longitude: 2.35 });
    expect(placed.json()).toMatchObject({ latitude: 48.85, longitude: 2.35 });
    const half = await cmA.put(`${A()}/sites/${site.id}/update`, { latitude: null });
    expect(half.statusCode).toBe(400);
    expect(half.json().details).toContainEqual({
      path: 'latitude',
      message: 'Please give both latitude and longitude, or neither',
    });
    const cleared = await cmA.put(`${A()}/sites/${site.id}/update`, { latitude: null, longitude: null });
    expect(cleared.json()).toMatchObject({ latitude: null, longitude: null });
    expect(
      (await cmA.put(`${A()}/sites/${site.id}/update`, { latitude: 12, longitude: 200 })).statusCode,
    ).toBe(400);

    const path = `${A()}/sites/${site.id}/buildings`;
    const building = await cmA.post(`${path}/create`, buildingBody({ latitude: 45.75, longitude: 4.85 }));
    expect(building.statusCode, building.body).toBe(201);
    expect(building.json()).toMatchObject({ latitude: 45.75, longitude: 4.85 });
    const moved = await cmA.put(`${path}/${building.json().id}/update`, { latitude: 45.7, longitude: 4.8 });
    expect(moved.json()).toMatchObject({ latitude: 45.7, longitude: 4.8 });
    expect((await cmA.post(`${path}/create`, buildingBody({ latitude: -95, longitude: 0 }))).statusCode).toBe(
      400,
    );
  });
});

describe('the nearest plumbers of a site', () => {
  let siteUrl: string;
  beforeAll(async () => {
    // Site a2 has no coordinates of its own: its building's stand for it (Lyon, Bellecour).
    await t.db.insert(buildings).values({
      siteId: w.sites.a2.id,
      name: 'Lyon office',
      type: 'office',
      address: '2 place Bellecour',
      city: 'Lyon',
      zipCode: '69002',
      country: 'FR',
      timezone: 'Europe/Paris',
      volumeUnit: 'm3',
      currency: 'EUR',
      firstDayOfWeek: 'monday',
      weekend: ['saturday', 'sunday'],
      latitude: 45.7578,
      longitude: 4.832,
    });
    siteUrl = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}/plumbers/nearest`;
    // Villeurbanne (about 5 km, comes 10 km), Grenoble (about 95 km, comes 50 km), Paris (about 390 km, comes 500 km).
    await create(
      cmA,
      entry({
        company: 'Villeurbanne Eau',
        customer_id: w.customers.a.id,
        latitude: 45.7719,
        longitude: 4.8902,
        service_radius_km: 10,
      }),
    );
    await create(
      cmA,
      entry({
        company: 'Grenoble Tubes',
        customer_id: w.customers.a.id,
        latitude: 45.1885,
        longitude: 5.7245,
        service_radius_km: 50,
      }),
    );
    await create(
      provider,
      entry({ company: 'Paris Plomberie', latitude: 48.8566, longitude: 2.3522, service_radius_km: 500 }),
    );
    // Customer B's, nearer than any: never shown to A.
    await create(
      cmB,
      entry({ company: 'B Lyon', customer_id: w.customers.b.id, latitude: 45.758, longitude: 4.833 }),
    );
  });

  it("answers the entries the site's customer sees, nearest first, with their distance and whether they come", async () => {
    const res = await smA.get(siteUrl.replace(w.sites.a2.id, w.sites.a1.id));
    // Site a1 is placed nowhere: nothing to sort by.
    expect(res.json()).toEqual({ site: null, items: [] });
    const near = (await cmA.get(siteUrl)).json() as {
      site: { latitude: number; longitude: number };
      items: { company: string; distance_km: number; covers_site: boolean }[];
    };
    expect(near.site).toEqual({ latitude: 45.7578, longitude: 4.832 });
    const ranked = near.items.map((p) => p.company);
    expect(ranked).not.toContain('B Lyon');
    expect(ranked.indexOf('Villeurbanne Eau')).toBeLessThan(ranked.indexOf('Grenoble Tubes'));
    expect(ranked.indexOf('Grenoble Tubes')).toBeLessThan(ranked.indexOf('Paris Plomberie'));
    const by = Object.fromEntries(near.items.map((p) => [p.company, p]));
    expect(by['Villeurbanne Eau']!.distance_km).toBeGreaterThan(4);
    expect(by['Villeurbanne Eau']!.distance_km).toBeLessThan(6);
    expect(by['Villeurbanne Eau']!.covers_site).toBe(true);
    expect(by['Grenoble Tubes']!.covers_site).toBe(false);
    expect(by['Paris Plomberie']!.distance_km).toBeGreaterThan(380);
    expect(by['Paris Plomberie']!.covers_site).toBe(true);
    const distances = near.items.map((p) => p.distance_km);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect((await cmA.get(`${siteUrl}?limit=1`)).json().items).toHaveLength(1);
  });

  it('is read as the site is: not by the site manager of another site, nor another customer', async () => {
    expect((await smA.get(siteUrl)).statusCode).toBe(403);
    expect((await cmB.get(siteUrl)).statusCode).toBe(403);
    expect((await provider.get(siteUrl)).statusCode).toBe(200);
    expect((await cmA.get(`${siteUrl}?limit=51`)).statusCode).toBe(400);
  });
});

describe('the maps', () => {
  it('answer the tile server of the settings to every manager', async () => {
    const res = await smB.get('/v1/map/settings');
    expect(res.json()).toMatchObject({ tile_url: 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png' });
    expect(res.json().attribution).toContain('OpenStreetMap');
  });

  it('show each site the caller sees with its open alerts, offline flowboxes and closed valves', async () => {
    const [building] = await t.db
      .insert(buildings)
      .values({
        siteId: w.sites.b1.id,
        name: 'Mapped',
        type: 'office',
        address: 'x',
        city: 'x',
        zipCode: 'x',
        country: 'FR',
        timezone: 'Europe/Paris',
        volumeUnit: 'm3',
        currency: 'EUR',
        firstDayOfWeek: 'monday',
        weekend: [],
      })
      .returning();
    const [zone] = await t.db
      .insert(zones)
      .values({
        buildingId: building!.id,
        name: 'Z',
        profile: 'sanitary',
        flowboxModel: 'one_inch_v1',
        waterTemperature: 'cold',
      })
      .returning();
    const paired = { zoneId: zone!.id, pairingState: 'ready' as const, pairedAt: new Date() };
    await t.db.insert(flowboxes).values([
      { ...paired, serial: 'MAP-1', connected: false, valve: 'closed' },
      { ...paired, serial: 'MAP-2', connected: true, valve: 'opened' },
      { ...paired, serial: 'MAP-3', connected: false, valve: 'closed', pairedAt: null, pairingState: 'init' },
    ]);
    const base = {
      category: 'flowbox_dysfunction' as const,
      details: {},
      customerId: w.customers.b.id,
      siteId: w.sites.b1.id,
      buildingId: building!.id,
      zoneId: zone!.id,
      openedAt: new Date(),
      lastSeenAt: new Date(),
    };
    await t.db.insert(alerts).values([
      { ...base, cause: 'one', state: 'open' },
      { ...base, cause: 'two', state: 'silenced' },
      { ...base, cause: 'three', state: 'resolved' },
    ]);
    const b = (await cmB.get('/v1/map/sites')).json();
    expect(b.truncated).toBe(false);
    expect(b.items.map((s: { name: string }) => s.name)).toEqual(['B site 1', 'B site 2']);
    // Every flowbox placed on the site, as the fleet counts them: MAP-3, still pairing, is offline too.
    expect(b.items[0]).toMatchObject({ open_alerts: 2, offline_flowboxes: 2, closed_valves: 2 });
    expect(b.items[1]).toMatchObject({ open_alerts: 0, offline_flowboxes: 0, closed_valves: 0 });
    expect((await smB.get('/v1/map/sites')).json().items.map((s: { name: string }) => s.name)).toEqual([
      'B site 1',
    ]);
    const all = (await provider.get('/v1/map/sites')).json().items as { customer_name: string }[];
    expect(new Set(all.map((s) => s.customer_name))).toEqual(new Set(['Customer A', 'Customer B']));
    expect((await provider.get(`/v1/map/sites?customer_id=${w.customers.a.id}`)).json().items).toHaveLength(
      (await cmA.get('/v1/map/sites')).json().items.length,
    );
    expect((await cmA.get(`/v1/map/sites?customer_id=${w.customers.b.id}`)).statusCode).toBe(403);
  });
});

describe('the tile server setting', () => {
  it('is an http(s) URL template with {z}, {x} and {y}; the web CSP allows its origin', async () => {
    const { loadConfig } = await import('../config.ts');
    const { webCsp } = await import('../http/csp.ts');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'fbx-map-'));
    expect(loadConfig({ DATA_DIR: dir }).mapTileUrl).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dir, MAP_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png' }).mapTileUrl,
    ).toBe('https://tiles.example/{z}/{x}/{y}.png');
    for (const bad of ['ftp://tiles.example/{z}/{x}/{y}.png', 'https://tiles.example/{z}/{x}.png', 'tiles'])
      expect(() => loadConfig({ DATA_DIR: dir, MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    // The credit is text with [label](https://…) links, never HTML (issue 30).
    expect(
      loadConfig({ DATA_DIR: dir, MAP_TILE_ATTRIBUTION: '© [Tiles](https://tiles.example/about)' })
        .mapTileAttribution,
    ).toBe('© [Tiles](https://tiles.example/about)');
    expect(() =>
      loadConfig({ DATA_DIR: dir, MAP_TILE_ATTRIBUTION: '<a href="https://tiles.example">Tiles</a>' }),
    ).toThrow(/MAP_TILE_ATTRIBUTION/);
    expect(webCsp('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org;",
    );
    // {s} is each of Leaflet's subdomains, never a wildcard (issue 30: `https://*`).
    expect(webCsp('https://{s}.tiles.example:8443/{z}/{x}/{y}.png')).toContain(
      "img-src 'self' data: blob: https://a.tiles.example:8443 https://b.tiles.example:8443 https://c.tiles.example:8443;",
    );
    expect(webCsp('https://{s}.tiles.example:8443/{z}/{x}/{y}.png')).not.toContain('*');
  });
});
