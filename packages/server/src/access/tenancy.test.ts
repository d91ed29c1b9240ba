import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, emails, sites, users, userSites, userTokens } from '../db/schema.ts';
import {
  ApiClient,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * The tenant-isolation matrix (spec §2, §6; docs/permissions.md): every endpoint, called by every
 * kind of actor on a target inside customer A. A refusal is always 403 "Unauthorized resource
 * recovery" and writes nothing.
 */

type ActorName = 'provider' | 'cmA' | 'smA' | 'cmB' | 'smB' | 'anonymous';
const ACTORS: ActorName[] = ['provider', 'cmA', 'smA', 'cmB', 'smB', 'anonymous'];
const LABEL: Record<ActorName, string> = {
  provider: 'a provider manager',
  cmA: 'a customer manager of A',
  smA: 'a site manager of A (site a1)',
  cmB: 'a customer manager of B',
  smB: 'a site manager of B',
  anonymous: 'someone not signed in',
};

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown };
type Row = {
  action: string;
  /** Builds the call for one actor; deletions get a fresh target, so each actor tries on its own. */
  call: (actor: ActorName) => Call | Promise<Call>;
  expected: Record<Exclude<ActorName, 'anonymous'>, number>;
};

let t: TestApp;
let w: World;
const clients = {} as Record<ActorName, ApiClient>;
/** More targets: a second customer manager of A and of B, a site manager of a2 and of b2, a second provider. */
const more = { cmA2: '', smA2: '', cmB2: '', smB2: '', provider2: '' };

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  const [cmA2, smA2, cmB2, smB2, provider2] = await Promise.all([
    createUser(t.db, { email: 'cm.a2@test.io', role: 2, customerId: w.customers.a.id }),
    createUser(t.db, {
      email: 'sm.a2@test.io',
      role: 3,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a2.id],
    }),
    createUser(t.db, {
      email: 'cm.b2@test.io',
      role: 2,
      customerId: w.customers.b.id,
      firstname: 'Bea',
      lastname: 'Two',
    }),
    createUser(t.db, {
      email: 'sm.b2@test.io',
      role: 3,
      customerId: w.customers.b.id,
      siteIds: [w.sites.b2.id],
      firstname: 'Bo',
      lastname: 'Two',
    }),
    createUser(t.db, { email: 'provider2@test.io', role: 1 }),
  ]);
  Object.assign(more, {
    cmA2: cmA2.id,
    smA2: smA2.id,
    cmB2: cmB2.id,
    smB2: smB2.id,
    provider2: provider2.id,
  });
  const loginEmail: Record<Exclude<ActorName, 'anonymous'>, string> = {
    provider: 'provider@test.io',
    cmA: 'cm.a@test.io',
    smA: 'sm.a@test.io',
    cmB: 'cm.b@test.io',
    smB: 'sm.b@test.io',
  };
  for (const [actor, email] of Object.entries(loginEmail))
    clients[actor as ActorName] = await loginAs(t.app, email);
  clients.anonymous = new ApiClient(t.app);
});
afterAll(() => t.close());

const A = () => `/v1/customers/${w.customers.a.id}`;
let sequence = 0;

async function disposableSite(): Promise<{ id: string; name: string }> {
  const [row] = await t.db
    .insert(sites)
    .values({ customerId: w.customers.a.id, name: `Disposable site ${++sequence}` })
    .returning();
  return row!;
}

async function disposableUser(role: 1 | 2 | 3): Promise<{ id: string; name: string }> {
  const n = ++sequence;
  const user = await createUser(t.db, {
    email: `disposable${n}@test.io`,
    role,
    customerId: role === 1 ? null : w.customers.a.id,
    siteIds: role === 3 ? [w.sites.a1.id] : [],
    firstname: 'Dis',
    lastname: `Posable${n}`,
  });
  return { id: user.id, name: `Dis Posable${n}` };
}

const newManager = (actor: ActorName, family: string) => ({
  firstname: 'New',
  lastname: 'Manager',
  email: `${actor.toLowerCase()}.creates.${family}@test.io`,
});

const contacts = { technical_contact: { name: 'Tess Tech', email: 'tess@a.io', phone: '' } };

const allowProviderOnly = { provider: 200, cmA: 403, smA: 403, cmB: 403, smB: 403 };
const readCustomerA = { provider: 200, cmA: 200, smA: 403, cmB: 403, smB: 403 };
const readSiteA1 = { provider: 200, cmA: 200, smA: 200, cmB: 403, smB: 403 };
const manageInA = { provider: 200, cmA: 200, smA: 403, cmB: 403, smB: 403 };
const withStatus = (base: Row['expected'], from: number, to: number): Row['expected'] =>
  Object.fromEntries(Object.entries(base).map(([k, v]) => [k, v === from ? to : v])) as Row['expected'];

const ROWS: Row[] = [
  // Account
  {
    action: 'read its own profile',
    call: () => ({ method: 'GET', url: '/v1/users/me' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: 'change its password given a wrong current one',
    call: () => ({
      method: 'PUT',
      url: '/v1/users/update_password',
      body: { current_password: 'not-my-password-1', password: 'new-password-2' },
    }),
    expected: { provider: 400, cmA: 400, smA: 400, cmB: 400, smB: 400 },
  },
  {
    action: 'read the email outbox',
    call: () => ({ method: 'GET', url: '/v1/outbox' }),
    expected: allowProviderOnly,
  },

  // Customers
  {
    action: 'list the customers',
    call: () => ({ method: 'GET', url: '/v1/customers/list' }),
    expected: allowProviderOnly,
  },
  { action: 'read customer A', call: () => ({ method: 'GET', url: `${A()}/info` }), expected: readCustomerA },
  {
    action: 'create a customer',
    call: (actor) => ({ method: 'POST', url: '/v1/customers/create', body: { name: `Created by ${actor}` } }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  {
    action: "update customer A's contacts",
    call: () => ({ method: 'PUT', url: `${A()}/update`, body: contacts }),
    expected: manageInA,
  },
  {
    action: "rename customer A (the provider's commercial record)",
    call: () => ({ method: 'PUT', url: `${A()}/update`, body: { name: 'Customer A' } }),
    expected: { provider: 200, cmA: 403, smA: 403, cmB: 403, smB: 403 },
  },
  {
    // The provider is sent a wrong name (400) so that customer A survives the matrix.
    action: 'delete customer A',
    call: (actor) => ({
      method: 'DELETE',
      url: `${A()}/delete`,
      body: { confirm_name: actor === 'provider' ? 'not the name' : 'Customer A' },
    }),
    expected: { provider: 400, cmA: 403, smA: 403, cmB: 403, smB: 403 },
  },
  {
    action: 'delete a customer',
    call: async () => {
      const [row] = await t.db.insert(customers).values({ name: 'Disposable customer' }).returning();
      return {
        method: 'DELETE',
        url: `/v1/customers/${row!.id}/delete`,
        body: { confirm_name: 'Disposable customer' },
      };
    },
    expected: { provider: 204, cmA: 403, smA: 403, cmB: 403, smB: 403 },
  },

  // Sites
  {
    action: 'list the sites of A',
    call: () => ({ method: 'GET', url: `${A()}/sites/list` }),
    expected: readSiteA1,
  },
  {
    action: 'read site a1',
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.a1.id}/info` }),
    expected: readSiteA1,
  },
  {
    action: 'read site a2',
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.a2.id}/info` }),
    expected: readCustomerA,
  },

  // Activity log
  {
    action: "read customer A's activity log",
    call: () => ({ method: 'GET', url: `${A()}/events` }),
    expected: readCustomerA,
  },
  {
    action: "read site a1's activity log",
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.a1.id}/events` }),
    expected: readSiteA1,
  },
  {
    action: "read site a2's activity log",
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.a2.id}/events` }),
    expected: readCustomerA,
  },
  {
    action: 'create a site in A',
    call: (actor) => ({ method: 'POST', url: `${A()}/sites/create`, body: { name: `Site by ${actor}` } }),
    expected: withStatus(manageInA, 200, 201),
  },
  {
    action: 'update site a1',
    call: () => ({ method: 'PUT', url: `${A()}/sites/${w.sites.a1.id}/update`, body: { name: 'A site 1' } }),
    expected: manageInA,
  },
  {
    action: 'update site a2',
    call: () => ({ method: 'PUT', url: `${A()}/sites/${w.sites.a2.id}/update`, body: { name: 'A site 2' } }),
    expected: manageInA,
  },
  {
    action: 'delete a site of A',
    call: async () => {
      const site = await disposableSite();
      return { method: 'DELETE', url: `${A()}/sites/${site.id}/delete`, body: { confirm_name: site.name } };
    },
    expected: withStatus(manageInA, 200, 204),
  },

  // Customer managers of A
  {
    action: 'list the customer managers of A',
    call: () => ({ method: 'GET', url: `${A()}/customer_managers/list` }),
    expected: readCustomerA,
  },
  {
    action: 'read a customer manager of A',
    call: () => ({ method: 'GET', url: `${A()}/customer_managers/${more.cmA2}/info` }),
    expected: readCustomerA,
  },
  {
    action: 'create a customer manager in A',
    call: (actor) => ({
      method: 'POST',
      url: `${A()}/customer_managers/create`,
      body: newManager(actor, 'cm'),
    }),
    expected: withStatus(manageInA, 200, 201),
  },
  {
    action: 'update a customer manager of A',
    call: () => ({
      method: 'PUT',
      url: `${A()}/customer_managers/${more.cmA2}/update`,
      body: { firstname: 'Test' },
    }),
    expected: manageInA,
  },
  {
    action: 'change the permissions of a customer manager of A',
    call: () => ({
      method: 'PUT',
      url: `${A()}/customer_managers/${more.cmA2}/update`,
      body: { permissions: { 'managers.manage': 'authorised' } },
    }),
    expected: manageInA,
  },
  {
    action: 'delete a customer manager of A',
    call: async () => {
      const user = await disposableUser(2);
      return {
        method: 'DELETE',
        url: `${A()}/customer_managers/${user.id}/delete`,
        body: { confirm_name: user.name },
      };
    },
    expected: withStatus(manageInA, 200, 204),
  },

  // Site managers of A
  {
    action: 'list the site managers of A',
    call: () => ({ method: 'GET', url: `${A()}/site_managers/list` }),
    expected: readCustomerA,
  },
  {
    action: 'list the site managers of site a1',
    call: () => ({ method: 'GET', url: `${A()}/site_managers/list?site_id=${w.sites.a1.id}` }),
    expected: readCustomerA,
  },
  {
    action: 'read the site manager of a2',
    call: () => ({ method: 'GET', url: `${A()}/site_managers/${more.smA2}/info` }),
    expected: readCustomerA,
  },
  {
    action: 'read the record of the site manager of a1',
    call: () => ({ method: 'GET', url: `${A()}/site_managers/${w.users.smA.id}/info` }),
    expected: readSiteA1,
  },
  {
    action: 'create a site manager in A',
    call: (actor) => ({
      method: 'POST',
      url: `${A()}/site_managers/create`,
      body: { ...newManager(actor, 'sm'), site_id: [w.sites.a1.id] },
    }),
    expected: withStatus(manageInA, 200, 201),
  },
  {
    action: 'update the site manager of a2',
    call: () => ({
      method: 'PUT',
      url: `${A()}/site_managers/${more.smA2}/update`,
      body: { firstname: 'Test' },
    }),
    expected: manageInA,
  },
  {
    action: 'update the profile of the site manager of a1',
    call: () => ({
      method: 'PUT',
      url: `${A()}/site_managers/${w.users.smA.id}/update`,
      body: { lastname: 'Asite' },
    }),
    expected: readSiteA1,
  },
  {
    action: 'give the site manager of a1 another site',
    call: () => ({
      method: 'PUT',
      url: `${A()}/site_managers/${w.users.smA.id}/update`,
      body: { site_id: [w.sites.a1.id] },
    }),
    expected: manageInA,
  },
  {
    action: 'delete a site manager of A',
    call: async () => {
      const user = await disposableUser(3);
      return {
        method: 'DELETE',
        url: `${A()}/site_managers/${user.id}/delete`,
        body: { confirm_name: user.name },
      };
    },
    expected: withStatus(manageInA, 200, 204),
  },

  // Provider managers
  {
    action: 'list the provider managers',
    call: () => ({ method: 'GET', url: '/v1/flovea_managers/list' }),
    expected: allowProviderOnly,
  },
  {
    action: 'read a provider manager',
    call: () => ({ method: 'GET', url: `/v1/flovea_managers/${more.provider2}/info` }),
    expected: allowProviderOnly,
  },
  {
    action: 'create a provider manager',
    call: (actor) => ({ method: 'POST', url: '/v1/flovea_managers/create', body: newManager(actor, 'fm') }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  {
    action: 'update a provider manager',
    call: () => ({
      method: 'PUT',
      url: `/v1/flovea_managers/${more.provider2}/update`,
      body: { firstname: 'Test' },
    }),
    expected: allowProviderOnly,
  },
  {
    action: 'delete a provider manager',
    call: async () => {
      const user = await disposableUser(1);
      return {
        method: 'DELETE',
        url: `/v1/flovea_managers/${user.id}/delete`,
        body: { confirm_name: user.name },
      };
    },
    expected: withStatus(allowProviderOnly, 200, 204),
  },
];

/** Every row of every table a write could touch, in a stable order. */
async function databaseState(): Promise<unknown[][]> {
  const dump = async (table: PgTable) =>
    (await t.db.select().from(table)).map((row) => JSON.stringify(row)).sort();
  return Promise.all([customers, sites, users, userSites, emails, userTokens].map(dump));
}

const cases = ROWS.flatMap((row) =>
  ACTORS.map((actor) => {
    const status = actor === 'anonymous' ? 401 : row.expected[actor];
    const verdict = status < 300 ? 'can' : status === 400 ? 'is answered 400 trying to' : 'cannot';
    return { name: `${LABEL[actor]} ${verdict} ${row.action} (${status})`, actor, row, status };
  }),
);

describe('tenant isolation on targets of customer A', () => {
  for (const { name, actor, row, status } of cases) {
    it(name, async () => {
      const call = await row.call(actor);
      const isRefusedWrite = call.method !== 'GET' && status >= 400;
      const before = isRefusedWrite ? await databaseState() : undefined;

      const res = await clients[actor].request(call.method, call.url, call.body);

      expect(res.statusCode, res.body).toBe(status);
      if (status === 403) {
        expect(res.json()).toEqual({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' });
      }
      if (status === 401) expect(res.json().code).toBe('errors.auth_expired');
      if (isRefusedWrite) expect(await databaseState()).toEqual(before);
    });
  }
});

describe('a target under the wrong customer', () => {
  type NestingCase = { what: string; call: () => Call };
  const wrongNesting: NestingCase[] = [
    {
      what: 'read site b1 under customer A',
      call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.b1.id}/info` }),
    },
    {
      what: 'update site b1 under customer A',
      call: () => ({ method: 'PUT', url: `${A()}/sites/${w.sites.b1.id}/update`, body: { name: 'Stolen' } }),
    },
    {
      what: 'delete site b1 under customer A',
      call: () => ({
        method: 'DELETE',
        url: `${A()}/sites/${w.sites.b1.id}/delete`,
        body: { confirm_name: 'B site 1' },
      }),
    },
    {
      what: 'read a customer manager of B under customer A',
      call: () => ({ method: 'GET', url: `${A()}/customer_managers/${more.cmB2}/info` }),
    },
    {
      what: 'update a customer manager of B under customer A',
      call: () => ({
        method: 'PUT',
        url: `${A()}/customer_managers/${more.cmB2}/update`,
        body: { firstname: 'X' },
      }),
    },
    {
      what: 'delete a customer manager of B under customer A',
      call: () => ({
        method: 'DELETE',
        url: `${A()}/customer_managers/${more.cmB2}/delete`,
        body: { confirm_name: 'Bea Two' },
      }),
    },
    {
      what: 'read a site manager of B under customer A',
      call: () => ({ method: 'GET', url: `${A()}/site_managers/${more.smB2}/info` }),
    },
    {
      what: 'update a site manager of B under customer A',
      call: () => ({
        method: 'PUT',
        url: `${A()}/site_managers/${more.smB2}/update`,
        body: { firstname: 'X' },
      }),
    },
    {
      what: 'delete a site manager of B under customer A',
      call: () => ({
        method: 'DELETE',
        url: `${A()}/site_managers/${more.smB2}/delete`,
        body: { confirm_name: 'Bo Two' },
      }),
    },
    {
      what: 'read a site manager of A through the customer-manager calls',
      call: () => ({ method: 'GET', url: `${A()}/customer_managers/${w.users.smA.id}/info` }),
    },
  ];
  const nestingCases = wrongNesting.flatMap(({ what, call }) => [
    { name: `${LABEL.provider} gets 404 trying to ${what}`, actor: 'provider' as const, call, status: 404 },
    { name: `${LABEL.cmA} gets 404 trying to ${what}`, actor: 'cmA' as const, call, status: 404 },
    { name: `${LABEL.cmB} gets 403 trying to ${what}`, actor: 'cmB' as const, call, status: 403 },
  ]);

  for (const { name, actor, call, status } of nestingCases) {
    it(`${name}, and nothing changes`, async () => {
      const { method, url, body } = call();
      const before = await databaseState();
      const res = await clients[actor].request(method, url, body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(status === 404 ? 'errors.not_found' : 'errors.forbidden');
      expect(await databaseState()).toEqual(before);
    });
  }

  it('answers the same 403 whether or not the target exists, so existence never leaks', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const real = await clients.cmB.get(`${A()}/sites/${w.sites.a1.id}/info`);
    const missing = await clients.cmB.get(`${A()}/sites/${ghost}/info`);
    expect(real.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toEqual(real.json());
  });
});
