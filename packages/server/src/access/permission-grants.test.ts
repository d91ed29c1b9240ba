import {
  PERMISSIONS,
  ROLES,
  grantablePermissions,
  translate,
  type Permission,
  type Role,
} from '@flowbox/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import {
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * docs/permissions.md "Granting permissions": whoever writes someone's permissions sets authorised
 * only what it holds itself (a provider manager holds them all), and never what the target's role
 * cannot hold. The walk: each role that writes permissions, each permission it is denied, each
 * call that writes permissions (create and update of every family it manages).
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let zoneA1 = '';
let sequence = 0;

type Family = 'customer_managers' | 'site_managers' | 'end_users' | 'plumbers';
const ROLE_OF: Record<Family, Role> = {
  customer_managers: ROLES.customer_manager,
  site_managers: ROLES.site_manager,
  end_users: ROLES.end_user,
  plumbers: ROLES.plumber,
};
/** The permission without which an actor writes nothing in the family at all. */
const GATE_OF: Record<Family, Permission> = {
  customer_managers: 'managers.manage',
  site_managers: 'managers.manage',
  end_users: 'end_users.manage',
  plumbers: 'end_users.manage',
};
type Writer = 'customer_manager' | 'site_manager';
const FAMILIES_OF: Record<Writer, Family[]> = {
  customer_manager: ['customer_managers', 'site_managers', 'end_users', 'plumbers'],
  site_manager: ['end_users', 'plumbers'],
};

const A = () => `/v1/customers/${w.customers.a.id}`;
/** The places a new or edited member of the family is given: site a1, or a zone of it. */
const placesOf = (family: Family) =>
  family === 'end_users'
    ? { zone_id: [zoneA1] }
    : family === 'customer_managers'
      ? {}
      : { site_id: [w.sites.a1.id] };

/** A member of the family with every permission denied, so that authorising any is a grant. */
const targets = {} as Record<Family, string>;
/** For each writer role and each permission, a signed-in writer denied only that permission. */
const writers = {} as Record<Writer, Record<Permission, ApiClient>>;

async function userWith(role: Role, permissions: Record<string, string>, places: object = {}) {
  const n = ++sequence;
  const email = `grants${n}@test.io`;
  const user = await createUser(t.db, {
    email,
    role,
    customerId: w.customers.a.id,
    siteIds: 'site_id' in places ? (places.site_id as string[]) : [],
    zoneIds: 'zone_id' in places ? (places.zone_id as string[]) : [],
    lastname: `Grants${n}`,
  });
  await t.db.update(users).set({ permissions }).where(eq(users.id, user.id));
  return { id: user.id, email };
}

const allDenied = Object.fromEntries(PERMISSIONS.map((p) => [p, 'denied']));

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 86_400 });
  w = await createWorld(t.db);
  provider = await loginAs(t.app, 'provider@test.io');
  const site = `${A()}/sites/${w.sites.a1.id}`;
  const building = (await provider.post(`${site}/buildings/create`, buildingBody())).json().id;
  zoneA1 = (await provider.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json().id;
  for (const family of Object.keys(ROLE_OF) as Family[])
    targets[family] = (await userWith(ROLE_OF[family], allDenied, placesOf(family))).id;
  for (const writer of ['customer_manager', 'site_manager'] as const) {
    writers[writer] = {} as Record<Permission, ApiClient>;
    for (const permission of PERMISSIONS) {
      const places = writer === 'site_manager' ? { site_id: [w.sites.a1.id] } : {};
      const { email } = await userWith(ROLES[writer], { [permission]: 'denied' }, places);
      writers[writer][permission] = await loginAs(t.app, email);
    }
  }
});
afterAll(() => t.close());

const userCount = async () => (await t.db.select({ n: count() }).from(users))[0]!.n;
const storedPermissions = async (id: string) =>
  (await t.db.select({ p: users.permissions }).from(users).where(eq(users.id, id)))[0]!.p;

const cases = (['customer_manager', 'site_manager'] as const).flatMap((writer) =>
  PERMISSIONS.flatMap((permission) =>
    FAMILIES_OF[writer].flatMap((family) =>
      (['create', 'update'] as const).map((call) => ({ writer, permission, family, call })),
    ),
  ),
);

describe('nobody grants what it does not hold, nor above the role (docs/permissions.md)', () => {
  it.each(cases)(
    'a $writer denied $permission cannot grant it on $call of $family',
    async ({ writer, permission, family, call }) => {
      const client = writers[writer][permission];
      const body = { permissions: { [permission]: 'authorised' } };
      const [countBefore, targetBefore] = await Promise.all([
        userCount(),
        storedPermissions(targets[family]),
      ]);
      const res =
        call === 'create'
          ? await client.post(`${A()}/${family}/create`, {
              firstname: 'New',
              lastname: 'Grantee',
              email: `grantee${++sequence}@test.io`,
              ...placesOf(family),
              ...body,
            })
          : await client.put(`${A()}/${family}/${targets[family]}/update`, body);

      if (permission === GATE_OF[family]) {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('errors.forbidden');
      } else if (!grantablePermissions(ROLE_OF[family]).includes(permission)) {
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().details).toEqual([
          { path: `permissions.${permission}`, message: translate('validation.permission_above_role', 'en') },
        ]);
      } else {
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toEqual({
          code: 'errors.permission_not_held',
          message: translate('errors.permission_not_held', 'en'),
          details: [
            { path: `permissions.${permission}`, message: translate('errors.permission_not_held', 'en') },
          ],
        });
      }
      expect(await userCount()).toBe(countBefore);
      expect(await storedPermissions(targets[family])).toEqual(targetBefore);
    },
  );
});

describe('granting and role defaults (docs/permissions.md "Granting permissions")', () => {
  it("caps a new user's role defaults to the inviter's own permissions, silently", async () => {
    const smWithoutValves = writers.site_manager['valves.control'];
    const plumber = await smWithoutValves.post(`${A()}/plumbers/create`, {
      firstname: 'Pia',
      lastname: 'Plumber',
      email: 'capped.plumber@test.io',
      site_id: [w.sites.a1.id],
    });
    expect(plumber.statusCode, plumber.body).toBe(201);
    expect(plumber.json().permissions).toMatchObject({
      'flowboxes.pair': 'authorised',
      'valves.control': 'denied',
    });
    const cmWithoutFirmware = writers.customer_manager['firmware.update'];
    const manager = await cmWithoutFirmware.post(`${A()}/site_managers/create`, {
      firstname: 'Sid',
      lastname: 'Capped',
      email: 'capped.sm@test.io',
      site_id: [w.sites.a1.id],
    });
    expect(manager.statusCode, manager.body).toBe(201);
    expect(manager.json().permissions).toMatchObject({
      'firmware.update': 'denied',
      'buildings.manage': 'authorised',
    });
  });

  it('keeps a value the user already has: saving the whole set is no grant', async () => {
    const endUser = await userWith(ROLES.end_user, { 'valves.control': 'authorised' }, { zone_id: [zoneA1] });
    const smWithoutValves = writers.site_manager['valves.control'];
    const current = (await smWithoutValves.get(`${A()}/end_users/${endUser.id}/info`)).json().permissions;
    const res = await smWithoutValves.put(`${A()}/end_users/${endUser.id}/update`, {
      permissions: { ...current, 'schedules.manage': 'authorised' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.permissions).toMatchObject({
      'valves.control': 'authorised',
      'schedules.manage': 'authorised',
    });
    // Taking away what one lacks narrows: it is allowed.
    const revoked = await smWithoutValves.put(`${A()}/end_users/${endUser.id}/update`, {
      permissions: { 'valves.control': 'denied' },
    });
    expect(revoked.json().user.permissions['valves.control']).toBe('denied');
  });

  it('refuses to store a permission above the role with 400, even from a provider; denied is accepted', async () => {
    const above = await provider.put(`${A()}/plumbers/${targets.plumbers}/update`, {
      permissions: { 'consumption.export': 'authorised', 'sites.manage': 'authorised' },
    });
    expect(above.statusCode, above.body).toBe(400);
    expect(above.json().details.map((d: { path: string }) => d.path)).toEqual([
      'permissions.sites.manage',
      'permissions.consumption.export',
    ]);
    const before = await storedPermissions(targets.plumbers);
    const fullSet = await provider.put(`${A()}/plumbers/${targets.plumbers}/update`, {
      permissions: { ...allDenied, 'flowboxes.pair': 'authorised' },
    });
    expect(fullSet.statusCode, fullSet.body).toBe(200);
    expect(before).toEqual(allDenied);
    const created = await provider.post(`${A()}/end_users/create`, {
      firstname: 'Eli',
      lastname: 'Above',
      email: 'above.role@test.io',
      zone_id: [zoneA1],
      permissions: { 'flowboxes.pair': 'authorised' },
    });
    expect(created.statusCode, created.body).toBe(400);
  });

  it('lets a provider manager grant every permission: it holds them all', async () => {
    const { email } = await userWith(ROLES.flovea_manager, { 'valves.control': 'denied' });
    await t.db.update(users).set({ customerId: null }).where(eq(users.email, email));
    const limitedProvider = await loginAs(t.app, email);
    const res = await limitedProvider.put(`${A()}/end_users/${targets.end_users}/update`, {
      permissions: { 'valves.control': 'authorised' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.permissions['valves.control']).toBe('authorised');
  });

  it('answers the refusal in French too', async () => {
    const client = writers.site_manager['schedules.manage'];
    const res = await client.request(
      'PUT',
      `${A()}/end_users/${targets.end_users}/update`,
      { permissions: { 'schedules.manage': 'authorised' } },
      { 'accept-language': 'fr' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(translate('errors.permission_not_held', 'fr'));
  });
});
