import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildings, users, zones } from '../db/schema.ts';
import type { ApiClient } from '../test/harness.ts';
import { createWorldApp, createUser, loginAs, type TestApp, type World } from '../test/harness.ts';

/*
 * The people screen's call (issue 18): everyone with access to the caller's scope, across roles.
 * The world: customers A and B (two sites each), a provider, a customer manager and a site manager
 * (first site) of each; here also end users and plumbers on each site of A and on B.
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;

type Item = { email: string; role_name: string; customer_name: string | null; status: string };
const emailsOf = (body: { items: Item[] }) => body.items.map((p) => p.email).sort();

async function zoneOn(siteId: string, name: string) {
  const [building] = await t.db
    .insert(buildings)
    .values({
      siteId,
      name: `Building of ${name}`,
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
      name,
      profile: 'sanitary',
      flowboxModel: 'one_inch_v1',
      waterTemperature: 'cold',
    })
    .returning();
  return zone!;
}

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
  const [zoneA1, zoneA2, zoneB1] = await Promise.all([
    zoneOn(w.sites.a1.id, 'Kitchen A1'),
    zoneOn(w.sites.a2.id, 'Kitchen A2'),
    zoneOn(w.sites.b1.id, 'Kitchen B1'),
  ]);
  const a = w.customers.a.id;
  const b = w.customers.b.id;
  await Promise.all([
    createUser(t.db, { email: 'eu.a1@test.io', role: ROLES.end_user, customerId: a, zoneIds: [zoneA1.id] }),
    createUser(t.db, { email: 'eu.a2@test.io', role: ROLES.end_user, customerId: a, zoneIds: [zoneA2.id] }),
    createUser(t.db, { email: 'eu.b1@test.io', role: ROLES.end_user, customerId: b, zoneIds: [zoneB1.id] }),
    createUser(t.db, {
      email: 'pl.a1@test.io',
      role: ROLES.plumber,
      customerId: a,
      siteIds: [w.sites.a1.id],
    }),
    createUser(t.db, {
      email: 'pl.a2@test.io',
      role: ROLES.plumber,
      customerId: a,
      siteIds: [w.sites.a2.id],
    }),
    createUser(t.db, {
      email: 'pl.b1@test.io',
      role: ROLES.plumber,
      customerId: b,
      siteIds: [w.sites.b1.id],
    }),
    createUser(t.db, {
      email: 'sm.a2@test.io',
      role: ROLES.site_manager,
      customerId: a,
      siteIds: [w.sites.a1.id, w.sites.a2.id],
    }),
  ]);
});
afterAll(() => t.close());

const list = (client: ApiClient, query = '') => client.get(`/v1/users/list${query}`);

describe('GET /v1/users/list: who sees whom', () => {
  it('a provider manager sees everyone, its own family and every customer’s people', async () => {
    const res = await list(provider, '?limit=200');
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(12);
    expect(emailsOf(res.json())).toEqual(
      [
        'provider@test.io',
        'cm.a@test.io',
        'sm.a@test.io',
        'sm.a2@test.io',
        'cm.b@test.io',
        'sm.b@test.io',
        'eu.a1@test.io',
        'eu.a2@test.io',
        'eu.b1@test.io',
        'pl.a1@test.io',
        'pl.a2@test.io',
        'pl.b1@test.io',
      ].sort(),
    );
  });

  it('a customer manager sees only its customer’s people, never customer B’s nor the provider', async () => {
    const res = await list(cmA, '?limit=200');
    expect(res.statusCode).toBe(200);
    expect(emailsOf(res.json())).toEqual(
      [
        'cm.a@test.io',
        'sm.a@test.io',
        'sm.a2@test.io',
        'eu.a1@test.io',
        'eu.a2@test.io',
        'pl.a1@test.io',
        'pl.a2@test.io',
      ].sort(),
    );
    expect(res.json().total).toBe(7);
    expect(res.json().items.every((p: Item) => p.customer_name === 'Customer A')).toBe(true);
    const cmB = await loginAs(t.app, 'cm.b@test.io');
    const other = await list(cmB, '?limit=200');
    expect(emailsOf(other.json())).toEqual([
      'cm.b@test.io',
      'eu.b1@test.io',
      'pl.b1@test.io',
      'sm.b@test.io',
    ]);
  });

  it('a site manager sees the site managers, end users and plumbers of its own sites only', async () => {
    const res = await list(smA, '?limit=200');
    expect(res.statusCode).toBe(200);
    expect(emailsOf(res.json())).toEqual(
      ['sm.a@test.io', 'sm.a2@test.io', 'eu.a1@test.io', 'pl.a1@test.io'].sort(),
    );
    // Another site manager's sites are named only where the caller sees them.
    const other = res.json().items.find((p: Item) => p.email === 'sm.a2@test.io');
    expect(other.sites.map((s: { name: string }) => s.name)).toEqual(['A site 1']);
    const endUser = res.json().items.find((p: Item) => p.email === 'eu.a1@test.io');
    expect(endUser.zones.map((z: { name: string }) => z.name)).toEqual(['Kitchen A1']);
  });

  it('end users and plumbers are refused with 403', async () => {
    for (const email of ['eu.a1@test.io', 'pl.a1@test.io']) {
      const res = await list(await loginAs(t.app, email));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/users/list' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /v1/users/list: what it tells', () => {
  it('answers role, customer, last login and status (invited until a password is set; suspended)', async () => {
    const invited = await createUser(t.db, {
      email: 'invited.a@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      lastname: 'Invitee',
    });
    await t.db.update(users).set({ passwordHash: null }).where(eq(users.id, invited.id));
    const suspended = await createUser(t.db, {
      email: 'suspended.a@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      lastname: 'Suspendee',
    });
    await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    try {
      const res = await list(cmA, '?search=ee&limit=200');
      expect(res.json().items).toEqual([
        expect.objectContaining({ email: 'invited.a@test.io', status: 'invited', last_login_at: null }),
        expect.objectContaining({ email: 'suspended.a@test.io', status: 'suspended', role_name: 'plumber' }),
      ]);
      // cm.a signed in in this test run: its last login is told.
      const self = await list(cmA, '?search=cm.a@');
      expect(self.json().items).toEqual([
        expect.objectContaining({
          email: 'cm.a@test.io',
          role: ROLES.customer_manager,
          role_name: 'customer_manager',
          customer_id: w.customers.a.id,
          customer_name: 'Customer A',
          status: 'active',
          last_login_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        }),
      ]);
    } finally {
      await t.db.delete(users).where(eq(users.id, invited.id));
      await t.db.delete(users).where(eq(users.id, suspended.id));
    }
  });

  it('searches first name, last name and email without case, literally', async () => {
    const res = await list(provider, '?search=PL.A');
    expect(emailsOf(res.json())).toEqual(['pl.a1@test.io', 'pl.a2@test.io']);
    const byLastname = await list(provider, '?search=amanager');
    expect(emailsOf(byLastname.json())).toEqual(['cm.a@test.io']);
    const wildcard = await list(provider, `?search=${encodeURIComponent('%')}`);
    expect(wildcard.json()).toEqual({ items: [], total: 0 });
  });

  it('filters by role, inside the scope', async () => {
    const res = await list(cmA, '?role=plumber');
    expect(emailsOf(res.json())).toEqual(['pl.a1@test.io', 'pl.a2@test.io']);
    const managers = await list(provider, '?role=flovea_manager');
    expect(emailsOf(managers.json())).toEqual(['provider@test.io']);
    const none = await list(cmA, '?role=flovea_manager');
    expect(none.json()).toEqual({ items: [], total: 0 });
  });

  it('pages by name, the total being the whole scope', async () => {
    const first = await list(cmA, '?limit=3');
    const rest = await list(cmA, '?limit=3&offset=3');
    expect(first.json().total).toBe(7);
    expect(first.json().items).toHaveLength(3);
    expect(rest.json().items).toHaveLength(3);
    const seen = [...first.json().items, ...rest.json().items].map((p: Item) => p.email);
    expect(new Set(seen).size).toBe(6);
  });
});

describe('GET /v1/users/list: bad input', () => {
  it.each([
    ['?limit=0', 'limit', 'Number must be greather or equal to 1'],
    ['?limit=10000', 'limit', 'Must be at most 200'],
    ['?limit=abc', 'limit', undefined],
    ['?offset=-1', 'offset', undefined],
    ['?role=janitor', 'role', 'Please select an option'],
    [`?search=${'x'.repeat(121)}`, 'search', undefined],
  ])('%s answers 400 with the catalogue message', async (query, path, message) => {
    const res = await list(provider, query);
    expect(res.statusCode).toBe(400);
    const details = res.json().details as { path: string; message: string }[];
    expect(details.map((d) => d.path)).toEqual([path]);
    if (message) expect(details[0]!.message).toBe(message);
  });

  it('answers the catalogue message in French', async () => {
    const fr = await loginAs(t.app, 'provider@test.io', 'fr');
    const res = await list(fr, '?role=janitor');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'role', message: 'Veuillez sélectionner une option' }]);
  });
});
