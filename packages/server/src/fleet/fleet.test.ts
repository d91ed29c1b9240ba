import { ROLES, type FleetPage } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../db/cursor.ts';
import { alerts, flowboxes, sites, zoneAutomation, zoneLeaks } from '../db/schema.ts';
import {
  type ApiClient,
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  zoneBody,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { siteManagerWithout } from '../test/harness.ts';

/*
 * The fleet at a glance (issue #18, docs/fleet.md): one list of every flowbox in the caller's
 * scope, its filters, serial search, sorts, keyset pages and CSV export.
 */

let t: TestApp;
let w: World;
const c = {} as Record<'provider' | 'cmA' | 'smA' | 'cmB' | 'smB', ApiClient>;
const zone = {} as Record<
  'a1' | 'a2' | 'b1',
  { id: string; customer: string; site: string; building: string }
>;
const fb = {} as Record<string, string>;

const HOUR = 3_600_000;
const T0 = new Date('2026-11-20T08:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  for (const [name, email] of [
    ['provider', 'provider@test.io'],
    ['cmA', 'cm.a@test.io'],
    ['smA', 'sm.a@test.io'],
    ['cmB', 'cm.b@test.io'],
    ['smB', 'sm.b@test.io'],
  ] as const)
    c[name] = await loginAs(t.app, email);
  for (const [key, customer, site] of [
    ['a1', w.customers.a.id, w.sites.a1.id],
    ['a2', w.customers.a.id, w.sites.a2.id],
    ['b1', w.customers.b.id, w.sites.b1.id],
  ] as const) {
    const prefix = `/v1/customers/${customer}/sites/${site}`;
    const building = (
      await c.provider.post(`${prefix}/buildings/create`, buildingBody({ name: `Building ${key}` }))
    ).json().id as string;
    const zoneId = (
      await c.provider.post(`${prefix}/buildings/${building}/zones/create`, zoneBody({ name: `Zone ${key}` }))
    ).json().id as string;
    zone[key] = { id: zoneId, customer, site, building };
  }
  const rows = [
    {
      serial: 'A1-001',
      zoneId: zone.a1.id,
      connected: true,
      connectionChangedAt: T0,
      valve: 'opened',
      firmwareVersion: '1.0.0',
      model: 'one_inch_v1',
      lastReadingAt: new Date(T0.getTime() + 3 * HOUR),
    },
    {
      serial: 'A1-002',
      zoneId: zone.a1.id,
      connected: false,
      connectionChangedAt: T0,
      valve: 'closed',
      firmwareVersion: '1.1.0',
      model: 'one_inch_v1',
      lastReadingAt: new Date(T0.getTime() + HOUR),
    },
    {
      serial: 'A1_X',
      zoneId: zone.a1.id,
      connected: true,
      connectionChangedAt: T0,
      valve: 'opened',
      firmwareVersion: '1.0.0',
      model: 'half_inch_v1',
      lastReadingAt: new Date(T0.getTime() + 2 * HOUR),
    },
    {
      serial: 'a2-001',
      zoneId: zone.a2.id,
      connected: false,
      connectionChangedAt: null,
      valve: null,
      firmwareVersion: null,
      model: null,
      lastReadingAt: null,
    },
    {
      serial: '=B1-001',
      zoneId: zone.b1.id,
      connected: true,
      connectionChangedAt: T0,
      valve: 'opened',
      firmwareVersion: '1.1.0',
      model: 'two_inches_v1',
      lastReadingAt: new Date(T0.getTime() + 4 * HOUR),
    },
  ] as const;
  for (const row of rows) {
    const [inserted] = await t.db
      .insert(flowboxes)
      .values({ ...row, pairingState: 'ready' })
      .returning();
    fb[row.serial] = inserted!.id;
  }
  // Zone a2 locked by automatic closing; a leak in zone a1 (naming no flowbox), a dysfunction of
  // A1-002 and a resolved alert of A1-001 (not counted).
  await t.db
    .insert(zoneAutomation)
    .values({ zoneId: zone.a2.id, automaticClosingEnabled: true, lockedAt: T0, lockedBy: 'volume' });
  const place = (key: 'a1') => ({
    customerId: zone[key].customer,
    siteId: zone[key].site,
    buildingId: zone[key].building,
    zoneId: zone[key].id,
  });
  await t.db.insert(alerts).values([
    {
      ...place('a1'),
      category: 'leakage_detection',
      cause: 'leak',
      state: 'open',
      openedAt: T0,
      lastSeenAt: T0,
    },
    {
      ...place('a1'),
      category: 'flowbox_dysfunction',
      cause: `valve:${fb['A1-002']}`,
      state: 'silenced',
      flowboxId: fb['A1-002'],
      flowboxSerial: 'A1-002',
      openedAt: T0,
      lastSeenAt: T0,
    },
    {
      ...place('a1'),
      category: 'flowbox_communication',
      cause: `comm:${fb['A1-001']}`,
      state: 'resolved',
      flowboxId: fb['A1-001'],
      flowboxSerial: 'A1-001',
      openedAt: T0,
      lastSeenAt: T0,
      resolvedAt: T0,
    },
  ]);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function page(client: ApiClient, query = ''): Promise<FleetPage> {
  const res = await client.get(`/v1/fleet/list?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FleetPage>();
}
const serials = async (client: ApiClient, query = '') =>
  (await page(client, query)).items.map((r) => r.serial);

describe('the fleet list: scope', () => {
  it('a provider manager sees every customer’s flowboxes, with their place', async () => {
    const all = await page(c.provider);
    expect(all.items.map((r) => r.serial)).toEqual(['=B1-001', 'A1-001', 'A1-002', 'A1_X', 'a2-001']);
    expect(all.total).toBe(5);
    const row = all.items.find((r) => r.serial === 'A1-002')!;
    expect(row).toMatchObject({
      customer_name: 'Customer A',
      site_name: 'A site 1',
      building_name: 'Building a1',
      zone_name: 'Zone a1',
      zone_id: zone.a1.id,
      connection: 'disconnected',
      connection_since: T0.toISOString(),
      valve: 'closed',
      firmware_version: '1.1.0',
      model: 'one_inch_v1',
      zone_locked: false,
      leaking: true,
      open_alerts: 2,
    });
    expect(all.items.find((r) => r.serial === 'a2-001')).toMatchObject({
      connection: 'never',
      zone_locked: true,
      leaking: false,
      open_alerts: 0,
      last_reading_at: null,
    });
  });

  it('a customer manager sees its own customer’s only; a site manager its own sites only', async () => {
    expect(await serials(c.cmA)).toEqual(['A1-001', 'A1-002', 'A1_X', 'a2-001']);
    expect(await serials(c.smA)).toEqual(['A1-001', 'A1-002', 'A1_X']);
    expect(await serials(c.cmB)).toEqual(['=B1-001']);
    expect(await serials(c.smB)).toEqual(['=B1-001']);
    // Whatever the filters, nothing of another customer.
    expect(await serials(c.cmB, 'q=A1')).toEqual([]);
    expect(await serials(c.smA, 'locked=true')).toEqual([]);
  });

  it('a site manager with no site sees nothing', async () => {
    await createUser(t.db, {
      email: 'sm.none@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [],
    });
    const none = await loginAs(t.app, 'sm.none@test.io');
    expect(await page(none)).toEqual({ items: [], next_cursor: null, total: 0 });
  });

  it('a customer or site filter is checked against the scope: 403 outside it, 404 to a provider for an unknown one', async () => {
    expect(await serials(c.provider, `customer_id=${w.customers.a.id}`)).toHaveLength(4);
    expect(await serials(c.provider, `site_id=${w.sites.a2.id}`)).toEqual(['a2-001']);
    expect(await serials(c.smA, `customer_id=${w.customers.a.id}`)).toHaveLength(3);
    expect((await c.cmA.get(`/v1/fleet/list?customer_id=${w.customers.b.id}`)).statusCode).toBe(403);
    expect((await c.smA.get(`/v1/fleet/list?site_id=${w.sites.a2.id}`)).statusCode).toBe(403);
    const ghost = '00000000-0000-4000-8000-000000000001';
    expect((await c.provider.get(`/v1/fleet/list?site_id=${ghost}`)).statusCode).toBe(404);
    expect((await c.cmA.get(`/v1/fleet/list?site_id=${ghost}`)).statusCode).toBe(403);
  });
});

describe('the fleet list: filters, search, sort', () => {
  it('filters offline, closed, locked, leaking, firmware version and model', async () => {
    expect(await serials(c.provider, 'offline=true')).toEqual(['A1-002', 'a2-001']);
    expect(await serials(c.provider, 'offline=false')).toEqual(['=B1-001', 'A1-001', 'A1_X']);
    expect(await serials(c.provider, 'closed=true')).toEqual(['A1-002']);
    expect(await serials(c.provider, 'locked=true')).toEqual(['a2-001']);
    expect(await serials(c.provider, 'leaking=true')).toEqual(['A1-001', 'A1-002', 'A1_X']);
    expect(await serials(c.provider, 'firmware_version=1.1.0')).toEqual(['=B1-001', 'A1-002']);
    expect(await serials(c.provider, 'model=half_inch_v1')).toEqual(['A1_X']);
    expect(await serials(c.provider, 'offline=true&closed=true&leaking=true')).toEqual(['A1-002']);
    expect((await page(c.provider, 'offline=true')).total).toBe(2);
  });

  it('filters by the zone’s leak analytics: continuous flow for at least N days, night flow above the allowance', async () => {
    const analytics = (hours: number, above: boolean) => ({
      asOf: T0,
      continuousHours: hours,
      continuousSince: new Date(T0.getTime() - hours * HOUR),
      continuousAtLeast: false,
      continuousFloorLph: 3,
      nightFlowLph: above ? 12 : 1,
      allowanceLph: 5,
      aboveAllowance: above,
      lossLph: above ? 7 : 3,
      lossLitresDay: above ? 168 : 72,
      continuousFlowDays: Math.floor(hours / 24),
      nights: [],
    });
    await t.db.insert(zoneLeaks).values([
      { zoneId: zone.a2.id, ...analytics(50, true) },
      { zoneId: zone.b1.id, ...analytics(5 * 24, false) },
    ]);
    try {
      expect(await serials(c.provider, 'continuous_flow_days=2')).toEqual(['=B1-001', 'a2-001']);
      expect(await serials(c.provider, 'continuous_flow_days=3')).toEqual(['=B1-001']);
      expect(await serials(c.provider, 'continuous_flow_days=6')).toEqual([]);
      expect(await serials(c.provider, 'night_above_allowance=true')).toEqual(['a2-001']);
      expect(await serials(c.provider, 'night_above_allowance=false')).toEqual([
        '=B1-001',
        'A1-001',
        'A1-002',
        'A1_X',
      ]);
      // Within the caller's scope only.
      expect(await serials(c.cmA, 'continuous_flow_days=2')).toEqual(['a2-001']);
      const refused = await c.provider.get('/v1/fleet/list?continuous_flow_days=0');
      expect(refused.statusCode).toBe(400);
      expect((await c.provider.get('/v1/fleet/list?continuous_flow_days=32')).statusCode).toBe(400);
    } finally {
      await t.db.delete(zoneLeaks);
    }
  });

  it('searches a serial prefix whatever its case, wildcards typed being plain characters', async () => {
    expect(await serials(c.provider, 'q=a1-')).toEqual(['A1-001', 'A1-002']);
    expect(await serials(c.provider, 'q=A2')).toEqual(['a2-001']);
    expect(await serials(c.provider, 'q=A1_')).toEqual(['A1_X']);
    expect(await serials(c.provider, 'q=%25')).toEqual([]);
    expect(await serials(c.provider, 'q=001')).toEqual([]);
    expect(await serials(c.provider, `q=${encodeURIComponent('\\')}`)).toEqual([]);
  });

  it('sorts by last reading, customer, open alerts and firmware, both ways, ties by serial', async () => {
    expect(await serials(c.provider, 'sort=last_reading&dir=desc')).toEqual([
      '=B1-001',
      'A1-001',
      'A1_X',
      'A1-002',
      'a2-001',
    ]);
    expect(await serials(c.provider, 'sort=last_reading')).toEqual([
      'a2-001',
      'A1-002',
      'A1_X',
      'A1-001',
      '=B1-001',
    ]);
    expect(await serials(c.provider, 'sort=customer')).toEqual([
      'A1-001',
      'A1-002',
      'A1_X',
      'a2-001',
      '=B1-001',
    ]);
    expect(await serials(c.provider, 'sort=customer&dir=desc')).toEqual([
      '=B1-001',
      'a2-001',
      'A1_X',
      'A1-002',
      'A1-001',
    ]);
    expect(await serials(c.provider, 'sort=open_alerts&dir=desc')).toEqual([
      'A1-002',
      'A1_X',
      'A1-001',
      'a2-001',
      '=B1-001',
    ]);
    expect(await serials(c.provider, 'sort=firmware')).toEqual([
      'a2-001',
      'A1-001',
      'A1_X',
      '=B1-001',
      'A1-002',
    ]);
  });
});

describe('the fleet list: pages', () => {
  it.each([
    'sort=serial',
    'sort=last_reading&dir=desc',
    'sort=customer',
    'sort=open_alerts&dir=desc',
    'sort=open_alerts',
    'sort=customer&dir=desc',
    'sort=firmware&dir=desc',
  ])(
    'walks %s two at a time: every flowbox once, in the one-page order, the total on the first page only',
    async (sort) => {
      const whole = await serials(c.provider, sort);
      const seen: string[] = [];
      let cursor: string | null = null;
      let first = true;
      do {
        const p: FleetPage = await page(c.provider, `${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(p.total).toBe(first ? 5 : null);
        expect(p.items.length).toBeLessThanOrEqual(2);
        seen.push(...p.items.map((r) => r.serial));
        cursor = p.next_cursor;
        first = false;
      } while (cursor);
      expect(seen).toEqual(whole);
    },
  );

  it('refuses a cursor of another sort, or made up', async () => {
    const p = await page(c.provider, 'limit=1');
    for (const query of [
      `sort=customer&cursor=${p.next_cursor}`,
      'cursor=bm9wZQ',
      `sort=last_reading&cursor=${encodeCursor({ sort: 'last_reading', key: 'x', serial: 'A' })}`,
      `sort=open_alerts&cursor=${encodeCursor({ sort: 'open_alerts', key: -1, serial: 'A' })}`,
    ]) {
      const res = await c.provider.get(`/v1/fleet/list?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details).toEqual([{ path: 'cursor', message: expect.any(String) }]);
    }
  });
});

describe('the dashboard’s device figures and the fleet they link to', () => {
  it('count the same flowboxes: online and offline on the dashboard are the fleet’s totals, for every role', async () => {
    for (const api of [c.provider, c.cmA, c.smA, c.cmB]) {
      const today = (await api.get('/v1/dashboard/today')).json() as {
        devices: { online: number; offline: number };
      };
      const total = async (offline: boolean) =>
        ((await api.get(`/v1/fleet/list?offline=${offline}`)).json() as FleetPage).total;
      expect(today.devices).toEqual({ online: await total(false), offline: await total(true) });
    }
  });
});

describe('the fleet CSV export', () => {
  it('is the same filtered, sorted list, columns in the reader’s language, formulas neutralised', async () => {
    const fr = await loginAs(t.app, 'provider@test.io', 'fr');
    const res = await fr.get('/v1/fleet/export.csv?sort=last_reading&dir=desc');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="fleet-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Numéro de série,Modèle,Client,Site,Bâtiment,Zone,Connexion,Depuis,Vanne,Zone verrouillée,Fuite,Firmware,Dernière mesure,Alertes ouvertes',
    );
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      "'=B1-001",
      'A1-001',
      'A1_X',
      'A1-002',
      'a2-001',
    ]);
    expect(lines.find((l) => l.startsWith('A1-002'))).toBe(
      `A1-002,one_inch_v1,Customer A,A site 1,Building a1,Zone a1,Hors ligne,${T0.toISOString()},Fermée,Non,Oui,1.1.0,${new Date(T0.getTime() + HOUR).toISOString()},2`,
    );
    const filtered = await c.smA.get('/v1/fleet/export.csv?offline=true');
    expect(
      filtered.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['A1-002']);
    const english = await c.cmB.get('/v1/fleet/export.csv');
    expect(english.body.trimEnd().split('\r\n')).toHaveLength(2);
    expect(english.body).toContain('Serial,Model,Customer');
  });

  it('neutralises every text cell a spreadsheet would run, the device-reported firmware version too', async () => {
    const formula = '=HYPERLINK("http://evil.example","x")';
    await t.db.update(flowboxes).set({ firmwareVersion: formula }).where(eq(flowboxes.id, fb['A1-001']!));
    try {
      const res = await c.provider.get('/v1/fleet/export.csv');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      expect(res.body).not.toMatch(/(^|,)"?[=+@]/m);
    } finally {
      await t.db.update(flowboxes).set({ firmwareVersion: '1.0.0' }).where(eq(flowboxes.id, fb['A1-001']!));
    }
  });

  it('quotes a site name holding a semicolon and neutralises the formula a French spreadsheet would cut from it (issue 30)', async () => {
    await t.db.update(sites).set({ name: "Gre;=cmd|' /C calc'!A0;" }).where(eq(sites.id, w.sites.a1.id));
    try {
      const res = await c.provider.get('/v1/fleet/export.csv');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`,"Gre;'=cmd|' /C calc'!A0;",`);
      // Cut at commas, semicolons, tabs or line breaks, no cell starts a formula.
      const cells = res.body.split(/[,;\t\r\n]/).map((cell) => cell.replace(/^[ "]*/, ''));
      expect(cells.filter((cell) => /^([=+@]|-(?!\d))/.test(cell))).toEqual([]);
    } finally {
      await t.db.update(sites).set({ name: 'A site 1' }).where(eq(sites.id, w.sites.a1.id));
    }
  });

  it('needs the export permission, and checks a customer filter like the list', async () => {
    const denied = await siteManagerWithout(t, w, 'sm.noexport@test.io', 'consumption.export');
    expect((await denied.get('/v1/fleet/export.csv')).statusCode).toBe(403);
    expect((await denied.get('/v1/fleet/list')).statusCode).toBe(200);
    expect((await c.cmA.get(`/v1/fleet/export.csv?customer_id=${w.customers.b.id}`)).statusCode).toBe(403);
  });
});
