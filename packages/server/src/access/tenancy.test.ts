import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertAnswers,
  alertCategorySettings,
  alerts,
  plumbers,
  claimCodes,
  buildings,
  buildingWaterBalance,
  reports,
  reportSchedules,
  customers,
  deviceCommands,
  flowboxCredentials,
  flowboxes,
  emails,
  events,
  files,
  firmwareImageCustomers,
  firmwareImages,
  floors,
  images,
  pricingPlanRanges,
  pricingPlans,
  pricingPlanVersions,
  pushSnoozes,
  pushSubscriptions,
  registrations,
  scheduleRuns,
  schedules,
  sites,
  users,
  userSites,
  userTokens,
  userZones,
  waterPoints,
  webhookEvents,
  webhooks,
  zoneAutomation,
  zones,
  zoneSubscriptions,
} from '../db/schema.ts';
import {
  ApiClient,
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  multipartFile,
  TINY_PNG,
  zoneBody,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { firmwareForm } from '../firmware/catalogue.testing.ts';
import { insertImage } from '../firmware/testing.ts';
import { testBrowser } from '../push/push.testing.ts';

/*
 * The tenant-isolation matrix (spec §2, §6; docs/permissions.md): every endpoint, called by every
 * kind of actor on a target inside customer A. A refusal is always 403 "Unauthorized resource
 * recovery" and writes nothing.
 */

type ActorName = 'provider' | 'cmA' | 'smA' | 'cmB' | 'smB' | 'euA' | 'plA' | 'anonymous';
const ACTORS: ActorName[] = ['provider', 'cmA', 'smA', 'cmB', 'smB', 'euA', 'plA', 'anonymous'];
const LABEL: Record<ActorName, string> = {
  provider: 'a provider manager',
  cmA: 'a customer manager of A',
  smA: 'a site manager of A (site a1)',
  cmB: 'a customer manager of B',
  smB: 'a site manager of B',
  euA: 'an end user of the target zone of site a1',
  plA: 'a plumber of A (site a1)',
  anonymous: 'someone not signed in',
};
/** Managers, whose expected answer every row states. */
type Manager = 'provider' | 'cmA' | 'smA' | 'cmB' | 'smB';
/** End users and plumbers (docs/permissions.md): refused unless a row says otherwise (deny by default). */
type Person = 'euA' | 'plA';

type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
};
type Row = {
  action: string;
  /** Builds the call for one actor; deletions get a fresh target, so each actor tries on its own. */
  call: (actor: ActorName) => Call | Promise<Call>;
  expected: Record<Manager, number> & Partial<Record<Person, number>>;
  /** The actors whose 403 is not the tenant refusal but this error (a basic zone's premium details). */
  refusedWith?: Partial<Record<Exclude<ActorName, 'anonymous'>, string>>;
};

let t: TestApp;
let w: World;
const clients = {} as Record<ActorName, ApiClient>;
/** More targets: a second customer manager of A and of B, a site manager of a2 and of b2, a second provider. */
const more = { cmA2: '', smA2: '', cmB2: '', smB2: '', provider2: '' };
let endUserId = '';

beforeAll(async () => {
  // Every actor signs in once, and the matrix can outlast the 15-minute token life on a loaded machine.
  t = await createTestApp({ accessTokenTtl: 86_400 });
  w = await createWorld(t.db);
  const [cmA2, smA2, cmB2, smB2, provider2] = await Promise.all([
    createUser(t.db, { email: 'cm.a2@test.io', role: ROLES.customer_manager, customerId: w.customers.a.id }),
    createUser(t.db, {
      email: 'sm.a2@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a2.id],
    }),
    createUser(t.db, {
      email: 'cm.b2@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.b.id,
      firstname: 'Bea',
      lastname: 'Two',
    }),
    createUser(t.db, {
      email: 'sm.b2@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.b.id,
      siteIds: [w.sites.b2.id],
      firstname: 'Bo',
      lastname: 'Two',
    }),
    createUser(t.db, { email: 'provider2@test.io', role: ROLES.flovea_manager }),
  ]);
  Object.assign(more, {
    cmA2: cmA2.id,
    smA2: smA2.id,
    cmB2: cmB2.id,
    smB2: smB2.id,
    provider2: provider2.id,
  });
  // docs/permissions.md: an end user (of the target zone of a1, below), a plumber assigned to site a1.
  const [endUser] = await Promise.all([
    createUser(t.db, {
      email: 'eu.a@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      firstname: 'Eve',
      lastname: 'Enduser',
    }),
    createUser(t.db, {
      email: 'pl.a@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
      firstname: 'Paul',
      lastname: 'Plumber',
    }),
  ]);
  endUserId = endUser.id;
  const loginEmail: Record<Exclude<ActorName, 'anonymous'>, string> = {
    provider: 'provider@test.io',
    cmA: 'cm.a@test.io',
    smA: 'sm.a@test.io',
    cmB: 'cm.b@test.io',
    smB: 'sm.b@test.io',
    euA: 'eu.a@test.io',
    plA: 'pl.a@test.io',
  };
  for (const [actor, email] of Object.entries(loginEmail))
    clients[actor as ActorName] = await loginAs(t.app, email);
  clients.anonymous = new ApiClient(t.app);
  for (const site of ['a1', 'a2'] as const) targets[site] = await hierarchyIn(w.sites[site].id);
  targets.b1 = await hierarchyIn(w.sites.b1.id);
  // docs/permissions.md: the end user is bound to the target zone of a1 once it exists.
  await t.db.insert(userZones).values({ userId: endUserId, zoneId: targets.a1.zone });
  await createFlowboxTargets();
  const logo = imageUpload();
  await clients.provider.request('PUT', `${A()}/logo`, logo.body, logo.headers);
});

type Targets = { building: string; floor: string; zone: string; waterPoint: string };
/** In each of sites a1, a2 and b1: a building with a floor, a zone with a water point, a picture. */
const targets = {} as Record<'a1' | 'a2' | 'b1', Targets>;

async function hierarchyIn(siteId: string): Promise<Targets> {
  const [building] = await t.db
    .insert(buildings)
    .values({ ...buildingRow(), siteId, name: 'Target building' })
    .returning();
  const [floor] = await t.db
    .insert(floors)
    .values({ buildingId: building!.id, label: 'Target floor' })
    .returning();
  const [zone] = await t.db
    .insert(zones)
    .values({ ...zoneRow(), buildingId: building!.id, name: 'Target zone' })
    .returning();
  const [waterPoint] = await t.db
    .insert(waterPoints)
    .values({ zoneId: zone!.id, label: 'Target tap', type: 'sink' })
    .returning();
  const [site] = await t.db.select().from(sites).where(eq(sites.id, siteId));
  const path = `/v1/customers/${site!.customerId}/sites/${siteId}/buildings/${building!.id}`;
  const upload = multipartFile(TINY_PNG);
  await t.app.inject({
    method: 'PUT',
    url: `${path}/images/picture`,
    payload: upload.payload,
    headers: { ...upload.headers, authorization: `Bearer ${clients.provider.token}` },
  });
  return {
    building: building!.id,
    floor: floor!.id,
    zone: zone!.id,
    waterPoint: waterPoint!.id,
  };
}

function buildingRow() {
  const body = buildingBody();
  return {
    name: body.name,
    type: 'office' as const,
    address: body.address,
    city: body.city,
    zipCode: body.zipCode,
    country: body.country,
    timezone: body.timezone,
    volumeUnit: 'm3' as const,
    currency: 'EUR' as const,
    firstDayOfWeek: 'monday' as const,
    weekend: ['saturday' as const, 'sunday' as const],
  };
}

function zoneRow() {
  return {
    name: 'Zone',
    profile: 'sanitary' as const,
    flowboxModel: 'one_inch_v1' as const,
    waterTemperature: 'cold' as const,
  };
}
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

async function disposableUser(role: Role): Promise<{ id: string; name: string }> {
  const n = ++sequence;
  const user = await createUser(t.db, {
    email: `disposable${n}@test.io`,
    role,
    customerId: role === ROLES.flovea_manager ? null : w.customers.a.id,
    siteIds: role === ROLES.site_manager ? [w.sites.a1.id] : [],
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
/** Customer A's records any of its managers reads, site managers included. */
const readInA = { provider: 200, cmA: 200, smA: 200, cmB: 403, smB: 403 };
/** On site a1, the given end user or plumber is answered as the site manager of a1 is. */
const also = (base: Row['expected'], site: 'a1' | 'a2', ...who: Person[]): Row['expected'] =>
  site === 'a1' ? { ...base, ...Object.fromEntries(who.map((p) => [p, base.smA])) } : base;
const withStatus = (base: Row['expected'], from: number, to: number): Row['expected'] =>
  Object.fromEntries(Object.entries(base).map(([k, v]) => [k, v === from ? to : v])) as Row['expected'];
/** spec §6: who may read the zone is refused for want of premium, the others as for any zone of A. */
const premiumOnly = (read: Row['expected']): Pick<Row, 'expected' | 'refusedWith'> => ({
  expected: withStatus(read, 200, 403),
  refusedWith: Object.fromEntries(
    Object.entries(read).flatMap(([actor, status]) =>
      status === 200 ? [[actor, 'errors.premium_required']] : [],
    ),
  ),
});

const ROWS: Row[] = [
  // Account
  {
    action: 'read its own profile',
    call: () => ({ method: 'GET', url: '/v1/users/me' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    action: 'change its password given a wrong current one',
    call: () => ({
      method: 'PUT',
      url: '/v1/users/update_password',
      body: { current_password: 'not-my-password-1', password: 'new-password-2' },
    }),
    expected: { provider: 400, cmA: 400, smA: 400, cmB: 400, smB: 400, euA: 400, plA: 400 },
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
  // docs/reports.md: a customer's reports are its customer managers' and the provider's; a site's its managers'.
  ...reportRows(null),
  ...reportRows('a1'),
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

  // Firmware catalogue (docs/firmware.md): the provider's; others read what is released to them.
  {
    action: 'list the firmware catalogue',
    call: () => ({ method: 'GET', url: '/v1/firmware/images' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: 'upload a firmware image',
    call: () => ({ method: 'POST', url: '/v1/firmware/images', ...firmwareUpload() }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  {
    action: 'read a firmware image released to A',
    call: async () => ({ method: 'GET', url: `/v1/firmware/images/${await firmwareForA()}` }),
    expected: readSiteA1,
  },
  {
    action: 'deprecate a firmware image released to A',
    call: async () => ({
      method: 'PATCH',
      url: `/v1/firmware/images/${await firmwareForA()}`,
      body: { status: 'deprecated' },
    }),
    expected: allowProviderOnly,
  },

  // Sites
  {
    action: 'list the sites of A',
    call: () => ({ method: 'GET', url: `${A()}/sites/list` }),
    expected: { ...readSiteA1, euA: 200, plA: 200 },
  },
  {
    action: 'read site a1',
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites.a1.id}/info` }),
    expected: { ...readSiteA1, plA: 200 },
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
      const user = await disposableUser(ROLES.customer_manager);
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
      const user = await disposableUser(ROLES.site_manager);
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
    // The people screen (issue 18): each manager gets its own scope; end users and plumbers none.
    action: 'list the people (each gets what it may see)',
    call: () => ({ method: 'GET', url: '/v1/users/list?limit=200' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 403, plA: 403 },
  },
  {
    action: 'list the plumbers among the people',
    call: () => ({ method: 'GET', url: '/v1/users/list?role=plumber&search=a' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 403, plA: 403 },
  },
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
      const user = await disposableUser(ROLES.flovea_manager);
      return {
        method: 'DELETE',
        url: `/v1/flovea_managers/${user.id}/delete`,
        body: { confirm_name: user.name },
      };
    },
    expected: withStatus(allowProviderOnly, 200, 204),
  },
  ...hierarchyRows('a1'),
  ...hierarchyRows('a2'),
  ...scheduleRows('a1'),
  ...scheduleRows('a2'),
  ...automationRows('a1'),
  ...automationRows('a2'),
  ...consumptionRows('a1'),
  ...consumptionRows('a2'),
  ...waterBalanceRows('a1'),
  ...waterBalanceRows('a2'),
  ...alertRows('a1'),
  ...alertRows('a2'),
  ...firmwareRows('a1'),
  ...firmwareRows('a2'),
  {
    action: 'list the firmware rollouts (each gets what it may see)',
    call: () => ({ method: 'GET', url: '/v1/firmware/rollouts' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: 'roll firmware out over the whole fleet',
    call: async () => ({
      method: 'POST',
      url: '/v1/firmware/rollouts',
      body: { image_id: await firmwareImage(), target: {} },
    }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  {
    action: 'list the alerts (each gets what it may see)',
    call: () => ({ method: 'GET', url: '/v1/alerts/list' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    // A site manager may name its own customer: it gets its own sites' alerts in it.
    action: "list customer A's alerts",
    call: () => ({ method: 'GET', url: `/v1/alerts/list?customer_id=${w.customers.a.id}` }),
    expected: readSiteA1,
  },
  {
    action: 'list the fleet (each gets what it may see)',
    call: () => ({ method: 'GET', url: '/v1/fleet/list?offline=true&sort=open_alerts&dir=desc' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    // A site manager may name its own customer: it gets its own sites' flowboxes in it.
    action: "list customer A's fleet",
    call: () => ({ method: 'GET', url: `/v1/fleet/list?customer_id=${w.customers.a.id}` }),
    expected: readSiteA1,
  },
  {
    action: "list the fleet of A's site a1",
    call: () => ({ method: 'GET', url: `/v1/fleet/list?site_id=${w.sites.a1.id}` }),
    expected: readSiteA1,
  },
  {
    action: "list the fleet of A's site a2",
    call: () => ({ method: 'GET', url: `/v1/fleet/list?site_id=${w.sites.a2.id}` }),
    expected: readCustomerA,
  },
  {
    action: 'export the fleet as CSV (each gets what it may see)',
    call: () => ({ method: 'GET', url: '/v1/fleet/export.csv' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: "export customer A's fleet as CSV",
    call: () => ({ method: 'GET', url: `/v1/fleet/export.csv?customer_id=${w.customers.a.id}` }),
    expected: readSiteA1,
  },
  {
    action: 'count the open alerts (each counts what it may see)',
    call: () => ({ method: 'GET', url: '/v1/alerts/count' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    action: 'read the alert category settings',
    call: () => ({ method: 'GET', url: '/v1/alerts/settings/list' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    // spec §3 alert settings are the whole service's: provider managers only.
    action: 'change an alert category setting',
    call: () => ({ method: 'PUT', url: '/v1/alerts/settings/maintenance/update', body: { email: true } }),
    expected: allowProviderOnly,
  },
  {
    action: "read customer A's consumption (a site manager gets its own sites' only)",
    call: () => ({ method: 'GET', url: `${A()}/consumption?window=year` }),
    expected: readSiteA1,
  },
  {
    action: "export customer A's consumption as CSV",
    call: () => ({ method: 'GET', url: `${A()}/consumption/export.csv?from=2026-01-01&to=2026-01-31` }),
    expected: readSiteA1,
  },
  {
    // Consumption and costs, which a plumber never reads (issue 30: it had 200 with zeros).
    action: "read today's dashboard figures (each gets what it may see; a plumber none)",
    call: () => ({ method: 'GET', url: '/v1/dashboard/today' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 403 },
  },

  // Pricing plans and subscriptions (docs/billing.md)
  {
    action: 'list the pricing plans',
    call: () => ({ method: 'GET', url: '/v1/pricing_plans/list' }),
    expected: allowProviderOnly,
  },
  {
    action: 'read a pricing plan',
    call: async () => ({ method: 'GET', url: `/v1/pricing_plans/${await targetPlan()}/info` }),
    expected: allowProviderOnly,
  },
  {
    action: 'create a pricing plan',
    call: (actor) => ({
      method: 'POST',
      url: '/v1/pricing_plans/create',
      body: planBody(`Plan by ${actor}`),
    }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  {
    action: 'change the price of a pricing plan from a later day',
    call: async () => ({
      method: 'PUT',
      url: `/v1/pricing_plans/${await targetPlan()}/update`,
      body: {
        new_price: true,
        from_date: new Date(Date.UTC(2030, 0, 1 + ++sequence)).toISOString().slice(0, 10),
      },
    }),
    expected: allowProviderOnly,
  },
  {
    action: 'delete a pricing plan',
    call: async () => {
      const name = `Disposable plan ${++sequence}`;
      const res = await clients.provider.post('/v1/pricing_plans/create', planBody(name));
      return {
        method: 'DELETE',
        url: `/v1/pricing_plans/${res.json().id}/delete`,
        body: { confirm_name: name },
      };
    },
    expected: allowProviderOnly,
  },
  {
    action: 'read the subscriptions overview',
    call: () => ({ method: 'GET', url: '/v1/subscriptions/overview' }),
    expected: allowProviderOnly,
  },
  ...(['a1', 'a2'] as const).flatMap((site): Row[] => {
    const subscription = () =>
      `${A()}/sites/${w.sites[site].id}/buildings/${targets[site].building}/zones/${targets[site].zone}/subscription`;
    return [
      {
        action: `read the subscription of a zone on site ${site}`,
        call: () => ({ method: 'GET', url: `${subscription()}/info` }),
        expected: site === 'a1' ? readSiteA1 : readCustomerA,
      },
      {
        // A commercial commitment: the customer's managers', never a site manager's.
        action: `choose the subscription of a zone on site ${site}`,
        call: async () => ({
          method: 'PUT',
          url: `${subscription()}/update`,
          body: { pricing_plan_id: await targetPlan(), service_level: 'premium' },
        }),
        expected: manageInA,
      },
    ];
  }),
  {
    action: "list the zones of customer A's sites (a site manager gets its own sites' only)",
    call: () => ({ method: 'GET', url: `${A()}/zones/list` }),
    expected: { ...readSiteA1, euA: 200, plA: 200 },
  },
  {
    action: 'list the zones of site a2 of customer A',
    call: () => ({ method: 'GET', url: `${A()}/zones/list?site_id=${w.sites.a2.id}` }),
    expected: readCustomerA,
  },
  // Flowboxes (issue #4): read like the site, paired with `flowboxes.pair`, commanded with `valves.control`.
  ...(['a1', 'a2'] as const).flatMap((site): Row[] => {
    const read = site === 'a1' ? readSiteA1 : readCustomerA;
    const manage = site === 'a1' ? readSiteA1 : manageInA;
    return [
      {
        action: `list the flowboxes of a zone on site ${site}`,
        call: () => ({ method: 'GET', url: `${zonePath(site)}/flowboxes/list` }),
        expected: also(read, site, 'euA', 'plA'),
      },
      {
        action: `read a flowbox on site ${site}`,
        call: () => ({ method: 'GET', url: `${flowboxTargets[site].path}/info` }),
        expected: also(read, site, 'euA', 'plA'),
      },
      {
        action: `prepare a pairing in a subscribed zone on site ${site}`,
        call: async () => ({
          method: 'POST',
          url: `${await subscribedZone(site)}/flowboxes/pair`,
          body: { serial: `TEN-${++sequence}`, factory_secret: 'f'.repeat(43) },
        }),
        expected: also(withStatus(manage, 200, 201), site, 'plA'),
      },
      {
        action: `validate the pairing of a flowbox on site ${site}`,
        call: async () => ({ method: 'POST', url: `${(await flowboxIn(site, 'pending')).path}/validate` }),
        expected: also(manage, site, 'plA'),
      },
      {
        action: `refuse the pairing of a flowbox on site ${site}`,
        call: async () => ({ method: 'POST', url: `${(await flowboxIn(site, 'pending')).path}/refuse` }),
        expected: also(withStatus(manage, 200, 204), site, 'plA'),
      },
      {
        action: `unpair a flowbox on site ${site}`,
        call: async () => ({ method: 'POST', url: `${(await flowboxIn(site, 'ready')).path}/unpair` }),
        expected: withStatus(manage, 200, 204),
      },
      {
        action: `detach a flowbox on site ${site}`,
        call: async () => {
          const target = await flowboxIn(site, 'ready');
          return { method: 'DELETE', url: `${target.path}/detach`, body: { confirm_name: target.serial } };
        },
        expected: withStatus(manage, 200, 204),
      },
      {
        action: `close the valve of a flowbox on site ${site}`,
        // A flowbox of its own for each caller: a second valve command to one flowbox waits (409).
        call: async () => ({
          method: 'POST',
          url: `${(await flowboxIn(site, 'ready')).path}/commands/send`,
          body: { name: 'valve_close' },
        }),
        expected: withStatus(manage, 200, 202),
      },
      {
        // docs/permissions.md: a plumber runs autotests (and maintenance); an end user never does.
        action: `run the autotest of a flowbox on site ${site}`,
        call: async () => ({
          method: 'POST',
          url: `${(await flowboxIn(site, 'ready')).path}/commands/send`,
          body: { name: 'autotest' },
        }),
        expected: also(withStatus(manage, 200, 202), site, 'plA'),
      },
      {
        action: `list the commands of a flowbox on site ${site}`,
        call: () => ({ method: 'GET', url: `${flowboxTargets[site].path}/commands/list` }),
        expected: also(read, site, 'euA', 'plA'),
      },
      {
        action: `read a command of a flowbox on site ${site}`,
        call: () => ({
          method: 'GET',
          url: `${flowboxTargets[site].path}/commands/${flowboxTargets[site].command}/info`,
        }),
        expected: also(read, site, 'euA', 'plA'),
      },
    ];
  }),
  {
    action: 'get a ticket for the live channel (each receives what it may read)',
    call: () => ({ method: 'POST', url: '/v1/live/ticket' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  // docs/push.md: any signed-in user manages their own browsers, and nobody another's.
  {
    action: "read the server's Web Push key",
    call: () => ({ method: 'GET', url: '/v1/push/key' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    action: 'subscribe its own browser to Web Push',
    call: (actor) => ({
      method: 'POST',
      url: '/v1/push/subscriptions',
      body: testBrowser(`https://push.example/tenancy/${actor}`).subscription,
    }),
    expected: { provider: 201, cmA: 201, smA: 201, cmB: 201, smB: 201, euA: 201, plA: 201 },
  },
  {
    action: 'list its own Web Push browsers',
    call: () => ({ method: 'GET', url: '/v1/push/subscriptions' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 200 },
  },
  {
    action: "remove a Web Push browser of A's customer manager (another's is not found)",
    call: async (actor) => {
      const endpoint = `https://push.example/tenancy/cm-a/${actor}`;
      await t.db
        .insert(pushSubscriptions)
        .values({ userId: w.users.cmA.id, endpoint, p256dh: 'k', auth: 'a' })
        .onConflictDoNothing();
      return { method: 'DELETE', url: '/v1/push/subscriptions', body: { endpoint } };
    },
    expected: { provider: 404, cmA: 204, smA: 404, cmB: 404, smB: 404, euA: 404, plA: 404 },
  },
  // docs/alerts.md "How each person is told": the people alerts reach set their own, nobody another's.
  {
    action: 'read its own notification preferences',
    call: () => ({ method: 'GET', url: '/v1/notifications/preferences' }),
    expected: { provider: 403, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 403 },
  },
  {
    action: 'change its own notification preferences',
    call: () => ({
      method: 'PUT',
      url: '/v1/notifications/preferences',
      body: {
        channels: { critical: { push: 'now', email: 'now' }, other: { push: 'off', email: 'now' } },
        quiet_hours: null,
      },
    }),
    expected: { provider: 403, cmA: 200, smA: 200, cmB: 200, smB: 200, euA: 200, plA: 403 },
  },
  // docs/webhooks.md: a customer's webhooks are its customer managers' and the provider's.
  {
    action: 'add a webhook to customer A',
    call: (actor) => ({
      method: 'POST',
      url: `${A()}/webhooks/create`,
      body: { url: `https://hooks.example/tenancy/${actor}`, events: ['alert.opened'], enabled: false },
    }),
    expected: withStatus(readCustomerA, 200, 201),
  },
  {
    action: "list customer A's webhooks",
    call: () => ({ method: 'GET', url: `${A()}/webhooks/list` }),
    expected: readCustomerA,
  },
  {
    action: 'read a webhook of A',
    call: async () => ({ method: 'GET', url: `${A()}/webhooks/${await webhookOfA()}/info` }),
    expected: readCustomerA,
  },
  {
    action: 'change a webhook of A',
    call: async () => ({
      method: 'PUT',
      url: `${A()}/webhooks/${await webhookOfA()}/update`,
      body: { description: 'Renamed' },
    }),
    expected: readCustomerA,
  },
  {
    action: "rotate a webhook of A's secret",
    call: async () => ({ method: 'POST', url: `${A()}/webhooks/${await webhookOfA()}/rotate_secret` }),
    expected: readCustomerA,
  },
  {
    action: 'send a test event to a webhook of A',
    call: async () => ({ method: 'POST', url: `${A()}/webhooks/${await webhookOfA()}/test` }),
    expected: withStatus(readCustomerA, 200, 202),
  },
  {
    action: "read a webhook of A's deliveries",
    call: async () => ({ method: 'GET', url: `${A()}/webhooks/${await webhookOfA()}/deliveries` }),
    expected: readCustomerA,
  },
  {
    action: 'delete a webhook of A',
    call: async () => ({ method: 'DELETE', url: `${A()}/webhooks/${await newWebhookOfA()}/delete` }),
    expected: withStatus(readCustomerA, 200, 204),
  },
  {
    action: 'read the device messaging counters',
    call: () => ({ method: 'GET', url: '/v1/metrics' }),
    expected: allowProviderOnly,
  },
  {
    action: "upload customer A's logo",
    call: () => ({ method: 'PUT', url: `${A()}/logo`, ...imageUpload() }),
    expected: manageInA,
  },
  {
    action: "read customer A's logo",
    // The rows above replaced it: read the current one.
    call: async () => {
      const [row] = await t.db.select().from(customers).where(eq(customers.id, w.customers.a.id));
      return { method: 'GET', url: row!.logo! };
    },
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 403, smB: 403 },
  },
  ...peopleRows('a1'),
  ...peopleRows('a2'),
  {
    action: "list customer A's registrations (a site manager gets its own sites' only)",
    call: () => ({ method: 'GET', url: `${A()}/registrations/list` }),
    expected: readSiteA1,
  },
  {
    action: "list customer A's end users (a site manager gets its own sites' only)",
    call: () => ({ method: 'GET', url: `${A()}/end_users/list` }),
    expected: readSiteA1,
  },
  {
    action: "list customer A's plumbers (a site manager gets its own sites' only)",
    call: () => ({ method: 'GET', url: `${A()}/plumbers/list` }),
    expected: readSiteA1,
  },
  ...(['a1', 'a2'] as const).flatMap((site): Row[] => [
    {
      action: `upload the plan of site ${site}`,
      call: () => ({ method: 'PUT', url: `${A()}/sites/${w.sites[site].id}/images/plan`, ...imageUpload() }),
      expected: manageInA,
    },
    {
      action: `read the picture of a building of site ${site}`,
      call: async () => {
        const [row] = await t.db.select().from(buildings).where(eq(buildings.id, targets[site].building));
        return { method: 'GET', url: row!.picture! };
      },
      expected: also(site === 'a1' ? readSiteA1 : readCustomerA, site, 'plA'),
    },
  ]),
  // Issue 18: the plumber directory (customer A's entries and the provider's shared ones), the maps.
  {
    action: 'list the plumbers it sees',
    call: () => ({ method: 'GET', url: '/v1/plumbers/list' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: 'list the plumbers customer A sees',
    call: () => ({ method: 'GET', url: `/v1/plumbers/list?customer_id=${w.customers.a.id}` }),
    expected: readInA,
  },
  {
    action: 'create a plumber of customer A',
    call: () => ({
      method: 'POST',
      url: '/v1/plumbers/create',
      body: { company: 'Matrix plumbing', customer_id: w.customers.a.id },
    }),
    expected: withStatus(manageInA, 200, 201),
  },
  {
    action: 'create a plumber shared with every customer',
    call: () => ({ method: 'POST', url: '/v1/plumbers/create', body: { company: 'Matrix shared' } }),
    expected: withStatus(allowProviderOnly, 200, 201),
  },
  ...(['ofA', 'shared'] as const).flatMap((owner): Row[] => [
    {
      action: `read a plumber ${owner === 'ofA' ? 'of customer A' : 'shared by the provider'}`,
      call: async () => ({ method: 'GET', url: `/v1/plumbers/${await plumberTarget(owner)}/info` }),
      expected: owner === 'ofA' ? readInA : { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
    },
    {
      action: `update a plumber ${owner === 'ofA' ? 'of customer A' : 'shared by the provider'}`,
      call: async () => ({
        method: 'PUT',
        url: `/v1/plumbers/${await plumberTarget(owner)}/update`,
        body: { availability: 'Always' },
      }),
      expected: owner === 'ofA' ? manageInA : allowProviderOnly,
    },
    {
      action: `delete a plumber ${owner === 'ofA' ? 'of customer A' : 'shared by the provider'}`,
      call: async () => {
        const id = await disposablePlumber(owner === 'ofA' ? w.customers.a.id : null);
        return {
          method: 'DELETE',
          url: `/v1/plumbers/${id}/delete`,
          body: { confirm_name: 'Disposable plumber' },
        };
      },
      expected: withStatus(owner === 'ofA' ? manageInA : allowProviderOnly, 200, 204),
    },
  ]),
  ...(['a1', 'a2'] as const).map((site): Row => ({
    action: `read the nearest plumbers of site ${site}`,
    call: () => ({ method: 'GET', url: `${A()}/sites/${w.sites[site].id}/plumbers/nearest` }),
    expected: site === 'a1' ? readSiteA1 : readCustomerA,
  })),
  {
    action: 'read the map settings',
    call: () => ({ method: 'GET', url: '/v1/map/settings' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: 'read the map of the sites it sees',
    call: () => ({ method: 'GET', url: '/v1/map/sites' }),
    expected: { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 },
  },
  {
    action: "read the map of customer A's sites",
    call: () => ({ method: 'GET', url: `/v1/map/sites?customer_id=${w.customers.a.id}` }),
    expected: readInA,
  },
];

/** A directory entry to read and update: customer A's, or the provider's shared one. */
const plumberTargets: Partial<Record<'ofA' | 'shared', Promise<string>>> = {};
function plumberTarget(owner: 'ofA' | 'shared'): Promise<string> {
  return (plumberTargets[owner] ??= disposablePlumber(owner === 'ofA' ? w.customers.a.id : null));
}
async function disposablePlumber(customerId: string | null): Promise<string> {
  const [row] = await t.db.insert(plumbers).values({ customerId, company: 'Disposable plumber' }).returning();
  return row!.id;
}

/** The path of the target zone of a site, or of another zone of its target building. */
const zonePath = (site: 'a1' | 'a2' | 'b1', zoneId = targets[site].zone) => {
  const customerId = site === 'b1' ? w.customers.b.id : w.customers.a.id;
  return `/v1/customers/${customerId}/sites/${w.sites[site].id}/buildings/${targets[site].building}/zones/${zoneId}`;
};

/** A flowbox written straight into a target zone, in the pairing state a row needs. */
async function flowboxIn(site: 'a1' | 'a2' | 'b1', state: 'pending' | 'ready') {
  const serial = `TEN-${++sequence}`;
  const [row] = await t.db
    .insert(flowboxes)
    .values({
      serial,
      zoneId: targets[site].zone,
      pairingState: state,
      model: 'one_inch_v1',
      waterTemperature: 'cold',
    })
    .returning();
  return { id: row!.id, serial, path: `${zonePath(site)}/flowboxes/${row!.id}` };
}

/** In each target zone, a paired flowbox with one command, for the rows that read or command it. */
const flowboxTargets = {} as Record<'a1' | 'a2' | 'b1', { path: string; command: string }>;
async function createFlowboxTargets(): Promise<void> {
  for (const site of ['a1', 'a2', 'b1'] as const) {
    const target = await flowboxIn(site, 'ready');
    const [command] = await t.db
      .insert(deviceCommands)
      .values({
        flowboxId: target.id,
        name: 'autotest',
        origin: 'web',
        issuedAt: new Date(),
        expiresAt: new Date(Date.now() + 120_000),
        nextAttemptAt: new Date(),
        status: 'pending',
      })
      .returning();
    flowboxTargets[site] = { path: target.path, command: command!.id };
  }
}

/** A new zone with a subscription (spec §5: pairing needs one), so each actor prepares its own pairing. */
async function subscribedZone(site: 'a1' | 'a2'): Promise<string> {
  const [zone] = await t.db
    .insert(zones)
    .values({ ...zoneRow(), buildingId: targets[site].building, name: `Pairing zone ${++sequence}` })
    .returning();
  await t.db.insert(zoneSubscriptions).values({
    zoneId: zone!.id,
    planId: await targetPlan(),
    serviceLevel: 'basic',
    startDate: '2026-01-01',
    renewalDate: '2027-01-01',
  });
  return `${A()}/sites/${w.sites[site].id}/buildings/${targets[site].building}/zones/${zone!.id}`;
}

/** A plan offered where the target buildings are (FR, EUR), created once by the provider. */
let plan: Promise<string> | undefined;
const targetPlan = () =>
  (plan ??= clients.provider
    .post('/v1/pricing_plans/create', planBody('Target plan'))
    .then((res) => res.json().id as string));

function planBody(name: string) {
  return {
    name,
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'acquisition',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2025-01-01',
    ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '2.5' }],
  };
}

/** An image of a new version each call, as the upload form sends it. */
const firmwareUpload = () => {
  const { payload, headers } = firmwareForm(
    { version: `9.${++sequence}.0`, models: 'one_inch_v1', released_to: 'all' },
    randomBytes(1024),
    `flowbox-one_inch_v1-9.${sequence}.0.bin`,
  );
  return { body: payload, headers };
};

/** A firmware image released to customer A only, uploaded once. */
let targetFirmware: Promise<string> | undefined;
function firmwareForA(): Promise<string> {
  return (targetFirmware ??= (async () => {
    const { payload, headers } = firmwareForm(
      { version: '8.8.8', models: 'one_inch_v1', released_to: w.customers.a.id },
      randomBytes(1024),
      'flowbox-one_inch_v1-8.8.8.bin',
    );
    const res = await clients.provider.request('POST', '/v1/firmware/images', payload, headers);
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json<{ id: string }>().id;
  })());
}

const imageUpload = () => {
  const { payload, headers } = multipartFile(TINY_PNG);
  return { body: payload, headers };
};

/**
 * Buildings, floors, zones and water points of one site of A: read like the site; managed by the
 * customer's managers and by a site manager on its own site (docs/permissions.md).
 */
function hierarchyRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const manage = site === 'a1' ? readSiteA1 : manageInA;
  const created = withStatus(manage, 200, 201);
  const deleted = withStatus(manage, 200, 204);
  const sitePath = () => `${A()}/sites/${w.sites[site].id}`;
  const building = () => `${sitePath()}/buildings/${targets[site].building}`;
  const zone = () => `${building()}/zones/${targets[site].zone}`;
  const on = `on site ${site}`;
  const n = () => ++sequence;
  return [
    {
      action: `list the buildings ${on}`,
      call: () => ({ method: 'GET', url: `${sitePath()}/buildings/list` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `read a building ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/info` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `create a building ${on}`,
      call: (actor) => ({
        method: 'POST',
        url: `${sitePath()}/buildings/create`,
        body: buildingBody({ name: `By ${actor}` }),
      }),
      expected: created,
    },
    {
      action: `update a building ${on}`,
      call: () => ({ method: 'PUT', url: `${building()}/update`, body: { city: 'Lyon' } }),
      expected: manage,
    },
    {
      action: `delete a building ${on}`,
      call: async () => {
        const name = `Disposable building ${n()}`;
        const [row] = await t.db
          .insert(buildings)
          .values({ ...buildingRow(), siteId: w.sites[site].id, name })
          .returning();
        return {
          method: 'DELETE',
          url: `${sitePath()}/buildings/${row!.id}/delete`,
          body: { confirm_name: name },
        };
      },
      expected: deleted,
    },
    {
      action: `upload the picture of a building ${on}`,
      call: () => ({ method: 'PUT', url: `${building()}/images/picture`, ...imageUpload() }),
      expected: manage,
    },
    {
      action: `read the activity log of a building ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/events` }),
      expected: read,
    },
    {
      action: `list the floors of a building ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/floors/list` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `add a floor to a building ${on}`,
      call: () => ({ method: 'POST', url: `${building()}/floors/create`, body: { label: 'New floor' } }),
      expected: created,
    },
    {
      action: `modify a floor ${on}`,
      call: () => ({
        method: 'PUT',
        url: `${building()}/floors/${targets[site].floor}/update`,
        body: { occupants: 3 },
      }),
      expected: manage,
    },
    {
      action: `delete a floor ${on}`,
      call: async () => {
        const label = `Disposable floor ${n()}`;
        const [row] = await t.db
          .insert(floors)
          .values({ buildingId: targets[site].building, label })
          .returning();
        return {
          method: 'DELETE',
          url: `${building()}/floors/${row!.id}/delete`,
          body: { confirm_name: label },
        };
      },
      expected: deleted,
    },
    {
      action: `list the zones of a building ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/zones/list` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `read a zone ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/info` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      // docs/permissions.md: a plumber switches maintenance mode, and nothing else of the zone.
      action: `put a zone in maintenance mode ${on}`,
      call: () => ({ method: 'PUT', url: `${zone()}/update`, body: { maintenance_mode: false } }),
      expected: also(manage, site, 'plA'),
    },
    {
      action: `create a zone ${on}`,
      call: () => ({ method: 'POST', url: `${building()}/zones/create`, body: zoneBody() }),
      expected: created,
    },
    {
      action: `update a zone ${on}`,
      call: () => ({ method: 'PUT', url: `${zone()}/update`, body: { occupants: 12 } }),
      expected: manage,
    },
    {
      action: `delete a zone ${on}`,
      call: async () => {
        const name = `Disposable zone ${n()}`;
        const [row] = await t.db
          .insert(zones)
          .values({ ...zoneRow(), buildingId: targets[site].building, name })
          .returning();
        return {
          method: 'DELETE',
          url: `${building()}/zones/${row!.id}/delete`,
          body: { confirm_name: name },
        };
      },
      expected: deleted,
    },
    {
      action: `read the activity log of a zone ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/events` }),
      expected: read,
    },
    {
      action: `list the water points of a zone ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/water_points/list` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      action: `add a water point to a zone ${on}`,
      call: () => ({
        method: 'POST',
        url: `${zone()}/water_points/create`,
        body: { label: 'Tap', type: 'sink' },
      }),
      expected: created,
    },
    {
      action: `update a water point ${on}`,
      call: () => ({
        method: 'PUT',
        url: `${zone()}/water_points/${targets[site].waterPoint}/update`,
        body: { location: 'Kitchen' },
      }),
      expected: manage,
    },
    {
      action: `delete a water point ${on}`,
      call: async () => {
        const label = `Disposable tap ${n()}`;
        const [row] = await t.db
          .insert(waterPoints)
          .values({ zoneId: targets[site].zone, label, type: 'sink' })
          .returning();
        return {
          method: 'DELETE',
          url: `${zone()}/water_points/${row!.id}/delete`,
          body: { confirm_name: label },
        };
      },
      expected: deleted,
    },
  ];
}

/** A zone allowing scheduled closings in the target building of a site, with one schedule, made once. */
const scheduleTargets: Partial<Record<'a1' | 'a2' | 'b1', Promise<{ zone: string; schedule: string }>>> = {};
function scheduleTarget(site: 'a1' | 'a2' | 'b1') {
  return (scheduleTargets[site] ??= (async () => {
    const [zone] = await t.db
      .insert(zones)
      .values({
        ...zoneRow(),
        buildingId: targets[site].building,
        name: 'Scheduled zone',
        scheduledClosingAuthorised: true,
      })
      .returning();
    const [schedule] = await t.db
      .insert(schedules)
      .values({ ...scheduleRow(), zoneId: zone!.id, label: 'Target schedule' })
      .returning();
    return { zone: zone!.id, schedule: schedule!.id };
  })());
}

function scheduleRow() {
  return {
    label: 'Schedule',
    dateStart: '2026-01-01',
    dateEnd: '2026-12-31',
    closingTime: '22:00',
    openingTime: '06:00',
    recurring: true,
    frequency: 'daily' as const,
  };
}

const scheduleBody = (label: string) => ({
  label,
  date_start: '2026-01-01',
  date_end: '2026-12-31',
  closing_time: '22:00',
  opening_time: '06:00',
  recurring: true,
  frequency: 'weekly',
  weekdays: ['friday'],
});

async function zonePathOfSchedules(site: 'a1' | 'a2') {
  const target = await scheduleTarget(site);
  return {
    ...target,
    path: `${A()}/sites/${w.sites[site].id}/buildings/${targets[site].building}/zones/${target.zone}`,
  };
}

/** Scheduled closings of a zone of one site of A: read like the site, managed like its zones. */
function scheduleRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const manage = site === 'a1' ? readSiteA1 : manageInA;
  const zone = () => zonePathOfSchedules(site);
  const on = `on site ${site}`;
  return [
    {
      action: `list the scheduled closings of a zone ${on}`,
      call: async () => ({ method: 'GET', url: `${(await zone()).path}/schedules/list` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `read the next scheduled closings of a zone ${on}`,
      call: async () => ({ method: 'GET', url: `${(await zone()).path}/schedules/occurrences` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `read a scheduled closing ${on}`,
      call: async () => {
        const z = await zone();
        return { method: 'GET', url: `${z.path}/schedules/${z.schedule}/info` };
      },
      expected: also(read, site, 'plA'),
    },
    {
      action: `create a scheduled closing ${on}`,
      call: async (actor) => ({
        method: 'POST',
        url: `${(await zone()).path}/schedules/create`,
        body: scheduleBody(`By ${actor}`),
      }),
      expected: withStatus(manage, 200, 201),
    },
    {
      action: `update a scheduled closing ${on}`,
      call: async () => {
        const z = await zone();
        return {
          method: 'PUT',
          url: `${z.path}/schedules/${z.schedule}/update`,
          body: scheduleBody('Target schedule'),
        };
      },
      expected: manage,
    },
    {
      action: `delete a scheduled closing ${on}`,
      call: async () => {
        const z = await zone();
        const label = `Disposable schedule ${++sequence}`;
        const [row] = await t.db
          .insert(schedules)
          .values({ ...scheduleRow(), zoneId: z.zone, label })
          .returning();
        return {
          method: 'DELETE',
          url: `${z.path}/schedules/${row!.id}/delete`,
          body: { confirm_name: label },
        };
      },
      expected: withStatus(manage, 200, 204),
    },
  ];
}

/** Automatic closing of a zone (docs/automation.md): read like its site, managed like its zones. */
function automationRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const manage = site === 'a1' ? readSiteA1 : manageInA;
  const on = `of a zone on site ${site}`;
  return [
    {
      action: `read the automatic closing ${on}`,
      call: () => ({ method: 'GET', url: `${zonePath(site)}/automation/info` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      action: `save the automatic-closing margins ${on}`,
      call: () => ({
        method: 'PUT',
        url: `${zonePath(site)}/automation/update`,
        body: {
          automatic_closing_enabled: true,
          volume_margin_enabled: true,
          volume_margin: 5,
          duration_margin_enabled: false,
          duration_margin_minutes: null,
        },
      }),
      expected: manage,
    },
    {
      // The target is not locked: those allowed are told there is nothing to exit.
      action: `exit automatic closing ${on}`,
      call: () => ({
        method: 'POST',
        url: `${zonePath(site)}/automation/exit`,
        body: { confirm_name: 'Target zone' },
      }),
      expected: withStatus(manage, 200, 409),
    },
    {
      // Changes nothing: whoever may save the margins may try them first.
      action: `backtest automatic-closing margins ${on}`,
      call: () => ({
        method: 'POST',
        url: `${zonePath(site)}/automation/backtest`,
        body: { days: 1, profile: 'office' },
      }),
      expected: manage,
    },
    // Away mode (issue 33): read like the zone; set and switched off by its end users and managers.
    {
      action: `read the away mode ${on}`,
      call: () => ({ method: 'GET', url: `${zonePath(site)}/away_mode/info` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      action: `set the away mode ${on}`,
      call: () => ({ method: 'PUT', url: `${zonePath(site)}/away_mode/update`, body: awayBody() }),
      expected: also(manage, site, 'euA'),
    },
    {
      action: `switch the away mode off ${on}`,
      call: () => ({ method: 'POST', url: `${zonePath(site)}/away_mode/clear` }),
      expected: also(manage, site, 'euA'),
    },
    {
      action: `read the water (on or off, since when, by whom) ${on}`,
      call: () => ({ method: 'GET', url: `${zonePath(site)}/water` }),
      expected: also(read, site, 'euA', 'plA'),
    },
  ];
}

/** An away period from tomorrow to the day after, in any building's time zone. */
function awayBody() {
  const day = (n: number) => new Date(t.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);
  return {
    from_date: day(1),
    from_time: '08:00',
    until_date: day(3),
    until_time: '18:00',
    close_on_flow: false,
  };
}

/**
 * Alerts of a zone on one site of A (docs/alerts.md): listed, counted and read like their site;
 * silenced, unsilenced and resolved by whoever reads it (with `alerts.manage`). Each row gets a
 * fresh alert in the state its transition needs, so each actor tries on its own.
 */
function alertRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const on = `on site ${site}`;
  return [
    {
      action: `list the alerts of the site ${on}`,
      call: () => ({ method: 'GET', url: `/v1/alerts/list?site_id=${w.sites[site].id}` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `list the alerts of a building ${on}`,
      call: () => ({ method: 'GET', url: `/v1/alerts/list?building_id=${targets[site].building}` }),
      expected: also(read, site, 'plA'),
    },
    {
      action: `list the alerts of a zone ${on}`,
      call: () => ({ method: 'GET', url: `/v1/alerts/list?zone_id=${targets[site].zone}&state=resolved` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      action: `read an alert ${on}`,
      call: async () => ({ method: 'GET', url: `/v1/alerts/${await alertIn(site, 'open')}/info` }),
      expected: also(read, site, 'euA', 'plA'),
    },
    ...(
      [
        ['silence', 'open'],
        ['unsilence', 'silenced'],
        ['resolve', 'open'],
        ['resolve', 'silenced'],
      ] as const
    ).map(([transition, state]): Row => ({
      action: `${transition} a${state === 'open' ? 'n open' : ' silenced'} alert ${on}`,
      call: async () => ({ method: 'POST', url: `/v1/alerts/${await alertIn(site, state)}/${transition}` }),
      expected: read,
    })),
    {
      // "Was this you?" (issue 33): the zone's end users and managers, not its plumber.
      action: `answer "Was this you?" on an alert ${on}`,
      call: async () => ({
        method: 'POST',
        url: `/v1/alerts/${await alertIn(site, 'open', 'abnormal_water_consumption_with_ac')}/answer`,
        body: { answer: 'me' },
      }),
      expected: also(read, site, 'euA'),
    },
    {
      action: `read the sums of "Was this you?" of a zone ${on}`,
      call: () => ({ method: 'GET', url: `/v1/alerts/answers/summary?zone_id=${targets[site].zone}` }),
      expected: read,
    },
    {
      // docs/push.md "Snooze": whoever reads the alert holds back their own pushes of it.
      action: `snooze one's own pushes of an alert ${on}`,
      call: async () => ({
        method: 'POST',
        url: `/v1/alerts/${await alertIn(site, 'open')}/snooze`,
        body: { minutes: 60 },
      }),
      expected: also(read, site, 'euA', 'plA'),
    },
    {
      // docs/alerts.md "Escalation": whoever reads the alert says they opened it, for themselves.
      action: `say one opened an alert ${on}`,
      call: async () => ({
        method: 'POST',
        url: '/v1/alerts/opened',
        body: { alert_ids: [await alertIn(site, 'open')] },
      }),
      expected: also(read, site, 'euA', 'plA'),
    },
  ];
}

/**
 * Firmware (docs/firmware.md "Who may do what"): a flowbox's card and update like its site, with
 * `firmware.update`; rollouts over a place by whoever may read it (a fresh flowbox or rollout for
 * each actor, so each tries on its own).
 */
function firmwareRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const on = `on site ${site}`;
  const target = () => ({
    customer_id: w.customers.a.id,
    site_id: w.sites[site].id,
    building_id: targets[site].building,
    zone_id: targets[site].zone,
  });
  // A flowbox waiting in a rollout under way is left out of the next one (docs/firmware.md): the
  // rollouts of earlier rows are cancelled first, so each row's rollout has devices of its own.
  const cancelUnderWay = async () => {
    const listed = await clients.provider.get('/v1/firmware/rollouts?limit=200');
    for (const { id, state } of listed.json().items as { id: string; state: string }[])
      if (state === 'running' || state === 'paused')
        await clients.provider.post(`/v1/firmware/rollouts/${id}/cancel`, {});
  };
  const rollout = async (state: 'running' | 'paused' = 'running') => {
    await cancelUnderWay();
    const res = await clients.provider.post('/v1/firmware/rollouts', {
      image_id: await firmwareImage(),
      target: target(),
    });
    const id = res.json().id as string;
    if (state === 'paused') await clients.provider.post(`/v1/firmware/rollouts/${id}/pause`, {});
    return id;
  };
  return [
    {
      action: `read a flowbox's firmware ${on}`,
      call: () => ({ method: 'GET', url: `${flowboxTargets[site].path}/firmware` }),
      expected: read,
    },
    {
      action: `update a flowbox's firmware ${on}`,
      call: async () => ({
        method: 'POST',
        url: `${(await flowboxIn(site, 'ready')).path}/firmware`,
        body: { image_id: await firmwareImage() },
      }),
      expected: withStatus(read, 200, 201),
    },
    {
      action: `roll firmware out over a zone ${on}`,
      call: async () => {
        await cancelUnderWay();
        return {
          method: 'POST',
          url: '/v1/firmware/rollouts',
          body: { image_id: await firmwareImage(), target: target() },
        };
      },
      expected: withStatus(read, 200, 201),
    },
    {
      action: `read a firmware rollout ${on}`,
      call: async () => ({ method: 'GET', url: `/v1/firmware/rollouts/${await rollout()}` }),
      expected: read,
    },
    {
      action: `list a firmware rollout's devices ${on}`,
      call: async () => ({ method: 'GET', url: `/v1/firmware/rollouts/${await rollout()}/devices` }),
      expected: read,
    },
    {
      action: `read a firmware rollout's states over time ${on}`,
      call: async () => ({ method: 'GET', url: `/v1/firmware/rollouts/${await rollout()}/timeline` }),
      expected: read,
    },
    ...(['pause', 'cancel'] as const).map((action): Row => ({
      action: `${action} a firmware rollout ${on}`,
      call: async () => ({ method: 'POST', url: `/v1/firmware/rollouts/${await rollout()}/${action}` }),
      expected: read,
    })),
    {
      action: `resume a paused firmware rollout ${on}`,
      call: async () => ({ method: 'POST', url: `/v1/firmware/rollouts/${await rollout('paused')}/resume` }),
      expected: read,
    },
  ];
}

/** The report calls on customer A (siteId null: the customer's own) or on site a1 (docs/reports.md "Who"). */
function reportRows(site: 'a1' | null): Row[] {
  const siteId = () => (site === null ? null : w.sites[site].id);
  const base = () => (site === null ? A() : `${A()}/sites/${w.sites[site].id}`);
  const read = site === null ? readCustomerA : readSiteA1;
  const on = site === null ? 'of customer A' : `of site ${site}`;
  const schedule = async () => {
    const [row] = await t.db
      .insert(reportSchedules)
      .values({
        customerId: w.customers.a.id,
        siteId: siteId(),
        name: `Report ${++sequence}`,
        frequency: 'weekly',
        formats: ['csv'],
        language: 'en',
        recipientIds: [],
        nextDueAt: new Date('2030-01-07T00:00:00Z'),
      })
      .returning();
    return row!;
  };
  let target: Promise<{ id: string }> | undefined;
  const report = () =>
    (target ??= (async () => {
      const [row] = await t.db
        .insert(reports)
        .values({
          customerId: w.customers.a.id,
          siteId: siteId(),
          periodFrom: '2026-11-23',
          periodTo: '2026-11-29',
          language: 'en',
          csv: Buffer.from('Total,1\r\n'),
          pdf: Buffer.from('%PDF-1.7\n'),
        })
        .returning();
      return row!;
    })());
  const input = { name: 'Weekly', frequency: 'weekly', formats: ['csv'], language: 'en', recipient_ids: [] };
  return [
    {
      action: `list the report schedules ${on}`,
      call: () => ({ method: 'GET', url: `${base()}/report_schedules/list` }),
      expected: read,
    },
    {
      action: `list who may receive the reports ${on}`,
      call: () => ({ method: 'GET', url: `${base()}/report_schedules/recipients` }),
      expected: read,
    },
    {
      action: `schedule a report ${on}`,
      call: () => ({ method: 'POST', url: `${base()}/report_schedules/create`, body: input }),
      expected: withStatus(read, 200, 201),
    },
    {
      action: `read a report schedule ${on}`,
      call: async () => ({ method: 'GET', url: `${base()}/report_schedules/${(await schedule()).id}/info` }),
      expected: read,
    },
    {
      action: `change a report schedule ${on}`,
      call: async () => ({
        method: 'PUT',
        url: `${base()}/report_schedules/${(await schedule()).id}/update`,
        body: input,
      }),
      expected: read,
    },
    {
      action: `delete a report schedule ${on}`,
      call: async () => {
        const row = await schedule();
        return {
          method: 'DELETE',
          url: `${base()}/report_schedules/${row.id}/delete`,
          body: { confirm_name: row.name },
        };
      },
      expected: withStatus(read, 200, 204),
    },
    {
      action: `list the reports ${on}`,
      call: () => ({ method: 'GET', url: `${base()}/reports/list` }),
      expected: read,
    },
    {
      action: `generate a report ${on} now`,
      call: () => ({
        method: 'POST',
        url: `${base()}/reports/generate`,
        body: { from: '2026-11-23', to: '2026-11-29', language: 'en', formats: ['csv'] },
      }),
      expected: withStatus(read, 200, 201),
    },
    ...(['csv', 'pdf'] as const).map((format): Row => ({
      action: `download a report ${on} as ${format.toUpperCase()}`,
      call: async () => ({ method: 'GET', url: `${base()}/reports/${(await report()).id}/report.${format}` }),
      expected: read,
    })),
  ];
}

/** One image in the catalogue, released to every customer, for the firmware rows. */
let image: Promise<string> | undefined;
const firmwareImage = () => (image ??= insertImage(t.db, { version: '9.0.0' }).then((row) => row.id));

/** A disabled webhook of customer A (never sent to: its address is not on loopback). */
async function newWebhookOfA(): Promise<string> {
  const [row] = await t.db
    .insert(webhooks)
    .values({
      customerId: w.customers.a.id,
      url: `https://hooks.example/tenancy/target-${++sequence}`,
      events: ['alert.opened'],
      enabled: false,
      secret: 'whsec_tenancy',
    })
    .returning();
  return row!.id;
}
let webhookTarget: Promise<string> | undefined;
const webhookOfA = () => (webhookTarget ??= newWebhookOfA());

/** A webhook's columns a call changes: its failure counts move as a test event is tried in the background. */
const WEBHOOK_SETTINGS = {
  id: webhooks.id,
  customerId: webhooks.customerId,
  url: webhooks.url,
  description: webhooks.description,
  events: webhooks.events,
  enabled: webhooks.enabled,
  secret: webhooks.secret,
};

/** A new alert of its own cause in the target zone of a site, opened as a detection would, then put in `state`. */
async function alertIn(
  site: 'a1' | 'a2',
  state: 'open' | 'silenced',
  category: 'flowbox_dysfunction' | 'abnormal_water_consumption_with_ac' = 'flowbox_dysfunction',
): Promise<string> {
  const outcome = await t.db.transaction((tx) =>
    t.services.alerts.raise(tx, {
      category,
      zoneId: targets[site].zone,
      cause: `tenancy-${++sequence}`,
      details: {},
    }),
  );
  if (!outcome.raised) throw new Error(`no alert raised: ${outcome.reason}`);
  if (state === 'silenced')
    await t.db
      .update(alerts)
      .set({ state: 'silenced', silencedAt: new Date(), notifyDueAt: null })
      .where(eq(alerts.id, outcome.alert.id));
  return outcome.alert.id;
}

/**
 * Every row of every table a write could touch, in a stable order. Not push_subscriptions: their
 * failure counts move in the background as other rows' alerts are pushed; push/push.test.ts checks
 * that a refused removal leaves the browser. Nor webhook deliveries, tried in the background as
 * test events are sent; the events a call queues are here, and the settings of webhooks.
 */
async function databaseState(): Promise<unknown[][]> {
  const dump = async (table: PgTable) =>
    (table === webhooks
      ? await t.db.select(WEBHOOK_SETTINGS).from(webhooks)
      : await t.db.select().from(table)
    )
      .map((row) => JSON.stringify(row))
      .sort();
  return Promise.all(
    [
      webhooks,
      webhookEvents,
      customers,
      sites,
      users,
      userSites,
      userZones,
      claimCodes,
      registrations,
      emails,
      userTokens,
      buildings,
      floors,
      zones,
      waterPoints,
      images,
      events,
      pricingPlans,
      pricingPlanVersions,
      pricingPlanRanges,
      zoneSubscriptions,
      flowboxes,
      flowboxCredentials,
      deviceCommands,
      schedules,
      scheduleRuns,
      zoneAutomation,
      buildingWaterBalance,
      reportSchedules,
      reports,
      alerts,
      alertAnswers,
      alertCategorySettings,
      firmwareImages,
      firmwareImageCustomers,
      files,
      plumbers,
      pushSnoozes,
    ].map(dump),
  );
}

const cases = ROWS.flatMap((row) =>
  ACTORS.map((actor) => {
    const status = actor === 'anonymous' ? 401 : (row.expected[actor] ?? 403);
    const code = actor === 'anonymous' ? undefined : row.refusedWith?.[actor];
    const verdict =
      status < 300
        ? 'can'
        : status === 400
          ? 'is answered 400 trying to'
          : code
            ? `is refused (${code}) trying to`
            : 'cannot';
    return { name: `${LABEL[actor]} ${verdict} ${row.action} (${status})`, actor, row, status, code };
  }),
);

/** What the matrix called, as "METHOD /path", for the check that every route is in it. */
const called = new Set<string>();
let casesRun = 0;

describe('tenant isolation on targets of customer A', () => {
  for (const { name, actor, row, status, code } of cases) {
    it(name, async () => {
      const call = await row.call(actor);
      called.add(`${call.method} ${call.url.split('?')[0]}`);
      casesRun++;
      const isRefusedWrite = call.method !== 'GET' && status >= 400;
      const before = isRefusedWrite ? await databaseState() : undefined;

      const res = await clients[actor].request(call.method, call.url, call.body, call.headers);

      expect(res.statusCode, res.body).toBe(status);
      if (status === 403 && code) expect(res.json().code).toBe(code);
      else if (status === 403) {
        expect(res.json()).toEqual({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' });
      }
      if (status === 401) expect(res.json().code).toBe('errors.auth_expired');
      if (isRefusedWrite) expect(await databaseState()).toEqual(before);
    });
  }
});

describe('an end user and the zone next door (docs/permissions.md)', () => {
  /** A zone in the same building as the end user's, with what an end user would read of its own. */
  let next = '';
  let nextZoneId = '';
  /** In the zone next door: a paired flowbox with a command, an open and a silenced alert. */
  const nextDoor = { flowbox: '', command: '', openAlert: '', silencedAlert: '' };
  /** An end user of the same zone as euA granted all an end user may hold: refusals are the scope's. */
  let granted: ApiClient;
  beforeAll(async () => {
    const [zone] = await t.db
      .insert(zones)
      .values({ ...zoneRow(), buildingId: targets.a1.building, name: 'Zone next door' })
      .returning();
    next = zonePath('a1', zone!.id);
    nextZoneId = zone!.id;
    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({
        serial: `TEN-NEXT-${++sequence}`,
        zoneId: nextZoneId,
        pairingState: 'ready',
        model: 'one_inch_v1',
        waterTemperature: 'cold',
      })
      .returning();
    const [command] = await t.db
      .insert(deviceCommands)
      .values({
        flowboxId: flowbox!.id,
        name: 'valve_close',
        origin: 'web',
        issuedAt: new Date(),
        expiresAt: new Date(Date.now() + 120_000),
        nextAttemptAt: new Date(),
        status: 'pending',
      })
      .returning();
    const alertNextDoor = async (state: 'open' | 'silenced') => {
      const outcome = await t.db.transaction((tx) =>
        t.services.alerts.raise(tx, {
          category: 'flowbox_dysfunction',
          zoneId: nextZoneId,
          cause: `next-door-${state}`,
          details: {},
        }),
      );
      if (!outcome.raised) throw new Error(`no alert raised: ${outcome.reason}`);
      if (state === 'silenced')
        await t.db
          .update(alerts)
          .set({ state: 'silenced', silencedAt: new Date(), notifyDueAt: null })
          .where(eq(alerts.id, outcome.alert.id));
      return outcome.alert.id;
    };
    Object.assign(nextDoor, {
      flowbox: `${next}/flowboxes/${flowbox!.id}`,
      command: command!.id,
      openAlert: await alertNextDoor('open'),
      silencedAlert: await alertNextDoor('silenced'),
    });
    const user = await createUser(t.db, {
      email: 'eu.granted@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [targets.a1.zone],
    });
    await t.db
      .update(users)
      .set({
        permissions: {
          'valves.control': 'authorised',
          'schedules.manage': 'authorised',
          'consumption.export': 'authorised',
        },
      })
      .where(eq(users.id, user.id));
    granted = await loginAs(t.app, 'eu.granted@test.io');
  });
  const calls: [string, () => Call][] = [
    ['read the zone', () => ({ method: 'GET', url: `${next}/info` })],
    ['list its flowboxes', () => ({ method: 'GET', url: `${next}/flowboxes/list` })],
    ['read its flowbox', () => ({ method: 'GET', url: `${nextDoor.flowbox}/info` })],
    [
      'close the valve of its flowbox',
      () => ({ method: 'POST', url: `${nextDoor.flowbox}/commands/send`, body: { name: 'valve_close' } }),
    ],
    ["list its flowbox's commands", () => ({ method: 'GET', url: `${nextDoor.flowbox}/commands/list` })],
    [
      "read its flowbox's command",
      () => ({ method: 'GET', url: `${nextDoor.flowbox}/commands/${nextDoor.command}/info` }),
    ],
    ['list its water points', () => ({ method: 'GET', url: `${next}/water_points/list` })],
    ['read its consumption', () => ({ method: 'GET', url: `${next}/consumption?window=day` })],
    [
      'export its consumption (CSV)',
      () => ({ method: 'GET', url: `${next}/consumption/export.csv?window=day` }),
    ],
    ['read its price tiers', () => ({ method: 'GET', url: `${next}/consumption/price_tiers` })],
    ['read its leak analytics', () => ({ method: 'GET', url: `${next}/leaks` })],
    ['read its automatic closing', () => ({ method: 'GET', url: `${next}/automation/info` })],
    [
      'backtest its automatic closing',
      () => ({ method: 'POST', url: `${next}/automation/backtest`, body: { days: 1 } }),
    ],
    ['list its scheduled closings', () => ({ method: 'GET', url: `${next}/schedules/list` })],
    [
      "read its scheduled closings' occurrences",
      () => ({ method: 'GET', url: `${next}/schedules/occurrences` }),
    ],
    [
      'add a scheduled closing to it',
      () => ({ method: 'POST', url: `${next}/schedules/create`, body: scheduleBody('Next door') }),
    ],
    ['list its alerts', () => ({ method: 'GET', url: `/v1/alerts/list?zone_id=${nextZoneId}` })],
    ['read one of its alerts', () => ({ method: 'GET', url: `/v1/alerts/${nextDoor.openAlert}/info` })],
    [
      'silence one of its alerts',
      () => ({ method: 'POST', url: `/v1/alerts/${nextDoor.openAlert}/silence` }),
    ],
    [
      'unsilence one of its alerts',
      () => ({ method: 'POST', url: `/v1/alerts/${nextDoor.silencedAlert}/unsilence` }),
    ],
    [
      'resolve one of its alerts',
      () => ({ method: 'POST', url: `/v1/alerts/${nextDoor.openAlert}/resolve` }),
    ],
    [
      'switch its leak detection',
      () => ({ method: 'PUT', url: `${next}/update`, body: { leak_detection_mode: true } }),
    ],
    [
      'answer "Was this you?" on one of its alerts',
      () => ({ method: 'POST', url: `/v1/alerts/${nextDoor.openAlert}/answer`, body: { answer: 'not_me' } }),
    ],
    ['read its away mode', () => ({ method: 'GET', url: `${next}/away_mode/info` })],
    ['set its away mode', () => ({ method: 'PUT', url: `${next}/away_mode/update`, body: awayBody() })],
    ['switch its away mode off', () => ({ method: 'POST', url: `${next}/away_mode/clear` })],
    ['read its water', () => ({ method: 'GET', url: `${next}/water` })],
  ];
  for (const who of ['an end user', 'an end user granted every end-user permission'] as const)
    for (const [what, call] of calls)
      it(`${who} cannot ${what} (403), its neighbour's, and nothing changes`, async () => {
        const client = who === 'an end user' ? clients.euA : granted;
        const { method, url, body } = call();
        const before = method === 'GET' ? undefined : await databaseState();
        const res = await client.request(method, url, body);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('errors.forbidden');
        if (before) expect(await databaseState()).toEqual(before);
      });

  it("does each of those on its own zone when granted (the refusals above are the scope's)", async () => {
    const own = zonePath('a1');
    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({
        serial: `TEN-OWN-${++sequence}`,
        zoneId: targets.a1.zone,
        pairingState: 'ready',
        model: 'one_inch_v1',
        waterTemperature: 'cold',
      })
      .returning();
    const ownFlowbox = `${own}/flowboxes/${flowbox!.id}`;
    const ok: Call[] = [
      { method: 'GET', url: `${ownFlowbox}/info` },
      { method: 'GET', url: `${ownFlowbox}/commands/list` },
      { method: 'GET', url: `${own}/consumption/export.csv?window=day` },
      { method: 'GET', url: `${own}/consumption/price_tiers` },
      { method: 'GET', url: `${own}/leaks` },
      { method: 'GET', url: `${own}/schedules/occurrences` },
      { method: 'GET', url: `/v1/alerts/${await alertIn('a1', 'open')}/info` },
    ];
    for (const { method, url } of ok) {
      const res = await granted.request(method, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    }
    const sent = await granted.post(`${ownFlowbox}/commands/send`, { name: 'valve_close' });
    expect(sent.statusCode, sent.body).toBe(202);
  });

  it('lists only its own zone in the directory, and names no site', async () => {
    const res = await clients.euA.request('GET', `${A()}/zones/list`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((z: { id: string }) => z.id)).toEqual([targets.a1.zone]);
    expect((await clients.euA.request('GET', `${A()}/sites/list`)).json().items).toEqual([]);
  });

  it("sees only its own zone's alerts in the lists and counts", async () => {
    await t.db.transaction((tx) =>
      t.services.alerts.raise(tx, {
        category: 'flowbox_dysfunction',
        zoneId: nextZoneId,
        cause: 'next-door',
        details: {},
      }),
    );
    const res = await clients.euA.request('GET', '/v1/alerts/list?state=active&limit=100');
    expect(res.statusCode).toBe(200);
    const zonesSeen = new Set(res.json().items.map((a: { zone_id: string }) => a.zone_id));
    expect([...zonesSeen].filter((z) => z !== targets.a1.zone)).toEqual([]);
  });
});

describe('a plumber outside its sites (docs/permissions.md)', () => {
  it('reads no price in the zone and building answers of its sites; a manager does', async () => {
    const building = zonePath('a1').split('/zones/')[0]!;
    await clients.provider.put(`${building}/update`, { price_per_unit: '3.5' });
    await clients.provider.put(`${zonePath('a1')}/update`, { price_per_unit: '4.25' });
    const answers = async (client: ApiClient) => [
      (await client.get(`${zonePath('a1')}/info`)).json(),
      ...(await client.get(`${building}/zones/list?limit=500`)).json().items,
      (await client.get(`${building}/info`)).json(),
      ...(await client.get(`${building.split('/buildings/')[0]}/buildings/list?limit=500`)).json().items,
    ];
    const prices = (items: Record<string, unknown>[]) =>
      items.flatMap((item) => [item.price_per_unit, item.effective_price_per_unit]).filter((p) => p != null);
    expect(prices(await answers(clients.smA))).toEqual(expect.arrayContaining(['3.5', '4.25']));
    const plumbers = await answers(clients.plA);
    expect(plumbers.map((item) => item.id)).toContain(targets.a1.zone);
    expect(prices(plumbers)).toEqual([]);
    // Its one zone write (maintenance mode) answers the zone as it reads it.
    const switched = await clients.plA.put(`${zonePath('a1')}/update`, { maintenance_mode: false });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(prices([switched.json()])).toEqual([]);
  });

  it('lists only its own sites and zones', async () => {
    const sitesRes = await clients.plA.request('GET', `${A()}/sites/list`);
    expect(sitesRes.json().items.map((x: { id: string }) => x.id)).toEqual([w.sites.a1.id]);
    const zonesRes = await clients.plA.request('GET', `${A()}/zones/list?limit=100`);
    expect(new Set(zonesRes.json().items.map((z: { site_id: string }) => z.site_id))).toEqual(
      new Set([w.sites.a1.id]),
    );
  });
});

describe("a person's places, named only inside the reader's scope (docs/permissions.md)", () => {
  /** An end user of a zone of a1 and one of a2; a plumber of sites a1 and a2. */
  const people = { endUser: '', plumber: '' };
  beforeAll(async () => {
    const [endUser, plumber] = await Promise.all([
      createUser(t.db, {
        email: 'eu.two.sites@test.io',
        role: ROLES.end_user,
        customerId: w.customers.a.id,
        zoneIds: [targets.a1.zone, targets.a2.zone],
        lastname: 'Twosites',
      }),
      createUser(t.db, {
        email: 'pl.two.sites@test.io',
        role: ROLES.plumber,
        customerId: w.customers.a.id,
        siteIds: [w.sites.a1.id, w.sites.a2.id],
        lastname: 'Twosites',
      }),
    ]);
    Object.assign(people, { endUser: endUser.id, plumber: plumber.id });
  });
  const placesIn = (user: { site_id: string[]; zone_id: string[] }) => [...user.site_id, ...user.zone_id];
  const FAMILIES = [
    ['end_users', () => people.endUser, () => [targets.a1.zone], () => [targets.a1.zone, targets.a2.zone]],
    ['plumbers', () => people.plumber, () => [w.sites.a1.id], () => [w.sites.a1.id, w.sites.a2.id].sort()],
  ] as const;

  it.each(FAMILIES)(
    'the %s list and info name to a site manager of a1 only its places in a1; to a customer manager all',
    async (family, id, inA1, all) => {
      const listed = async (client: ApiClient) => {
        const res = await client.get(`${A()}/${family}/list?search=Twosites`);
        expect(res.statusCode, res.body).toBe(200);
        return placesIn(res.json().items.find((u: { id: string }) => u.id === id())).sort();
      };
      const read = async (client: ApiClient) => {
        const res = await client.get(`${A()}/${family}/${id()}/info`);
        expect(res.statusCode, res.body).toBe(200);
        return placesIn(res.json()).sort();
      };
      expect(await listed(clients.smA)).toEqual(inA1());
      expect(await read(clients.smA)).toEqual(inA1());
      expect(await listed(clients.cmA)).toEqual([...all()].sort());
      expect(await read(clients.cmA)).toEqual([...all()].sort());
    },
  );

  it.each(FAMILIES)(
    'a site manager of a1 may not change one of the %s who has places outside its sites',
    async (family, id) => {
      const res = await clients.smA.put(`${A()}/${family}/${id()}/update`, { firstname: 'Changed' });
      expect(res.statusCode).toBe(403);
    },
  );
});

describe('a target under the wrong customer', () => {
  type NestingCase = { what: string; call: () => Call | Promise<Call> };
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
      what: 'read a building of site b1 under site a1 of customer A',
      call: () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.b1.building}/info`,
      }),
    },
    {
      what: 'update a building of site a2 under site a1',
      call: () => ({
        method: 'PUT',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a2.building}/update`,
        body: { name: 'Stolen' },
      }),
    },
    {
      what: 'delete a building of site b1 under site a1 of customer A',
      call: () => ({
        method: 'DELETE',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.b1.building}/delete`,
        body: { confirm_name: 'Target building' },
      }),
    },
    {
      what: 'upload a picture for a building of site b1 under site a1',
      call: () => ({
        method: 'PUT',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.b1.building}/images/picture`,
        ...imageUpload(),
      }),
    },
    {
      what: 'modify a floor of a building of a2 under a building of a1',
      call: () => ({
        method: 'PUT',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/floors/${targets.a2.floor}/update`,
        body: { label: 'Stolen' },
      }),
    },
    {
      what: 'name a zone of b1 the main supply of a building of a1',
      call: () => ({
        method: 'PUT',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/water_balance/settings`,
        body: { main_supply_zone_id: targets.b1.zone, alert_liters_per_night: null, alert_share_pct: null },
      }),
    },
    {
      what: 'read the consumption of a zone of b1 under a building of a1',
      call: () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${targets.b1.zone}/consumption`,
      }),
    },
    {
      what: 'read the consumption details of a premium zone of b1 under a building of a1',
      call: async () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${await detailsZone('b1', 'premium')}/consumption/details?window=day`,
      }),
    },
    {
      what: 'export the consumption of a building of b1 under site a1',
      call: () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.b1.building}/consumption/export.csv?window=week`,
      }),
    },
    {
      what: 'read a zone of a building of a2 under a building of a1',
      call: () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${targets.a2.zone}/info`,
      }),
    },
    {
      what: 'delete a water point of a zone of a2 under a zone of a1',
      call: () => ({
        method: 'DELETE',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${targets.a1.zone}/water_points/${targets.a2.waterPoint}/delete`,
        body: { confirm_name: 'Target tap' },
      }),
    },
    {
      what: "read the activity log of a zone of b1 under site a1's building",
      call: () => ({
        method: 'GET',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${targets.b1.zone}/events`,
      }),
    },
    {
      what: 'choose the subscription of a zone of b1 under a building of a1',
      call: () => ({
        method: 'PUT',
        url: `${A()}/sites/${w.sites.a1.id}/buildings/${targets.a1.building}/zones/${targets.b1.zone}/subscription/update`,
        body: { pricing_plan_id: '00000000-0000-4000-8000-000000000000', service_level: 'basic' },
      }),
    },
    {
      what: "read a flowbox of b1 under a zone of customer A's",
      call: () => ({ method: 'GET', url: `${zonePath('a1')}/flowboxes/${flowboxIdOf('b1')}/info` }),
    },
    {
      what: "close the valve of a flowbox of b1 under a zone of customer A's",
      call: () => ({
        method: 'POST',
        url: `${zonePath('a1')}/flowboxes/${flowboxIdOf('b1')}/commands/send`,
        body: { name: 'valve_close' },
      }),
    },
    {
      what: "unpair a flowbox of b1 under a zone of customer A's",
      call: () => ({ method: 'POST', url: `${zonePath('a1')}/flowboxes/${flowboxIdOf('b1')}/unpair` }),
    },
    {
      what: "update a scheduled closing of b1 under a zone of customer A's",
      call: async () => ({
        method: 'PUT',
        url: `${(await zonePathOfSchedules('a1')).path}/schedules/${(await scheduleTarget('b1')).schedule}/update`,
        body: scheduleBody('Stolen'),
      }),
    },
    {
      what: 'read a site manager of A through the customer-manager calls',
      call: () => ({ method: 'GET', url: `${A()}/customer_managers/${w.users.smA.id}/info` }),
    },
  ];
  const flowboxIdOf = (site: 'b1') => flowboxTargets[site].path.split('/').at(-1)!;
  const nestingCases = wrongNesting.flatMap(({ what, call }) => [
    { name: `${LABEL.provider} gets 404 trying to ${what}`, actor: 'provider' as const, call, status: 404 },
    { name: `${LABEL.cmA} gets 404 trying to ${what}`, actor: 'cmA' as const, call, status: 404 },
    { name: `${LABEL.cmB} gets 403 trying to ${what}`, actor: 'cmB' as const, call, status: 403 },
  ]);

  for (const { name, actor, call, status } of nestingCases) {
    it(`${name}, and nothing changes`, async () => {
      const { method, url, body, headers } = await call();
      const before = await databaseState();
      const res = await clients[actor].request(method, url, body, headers);
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
    const building = `${A()}/sites/${w.sites.a1.id}/buildings`;
    const realBuilding = await clients.smB.get(`${building}/${targets.a1.building}/info`);
    const missingBuilding = await clients.smB.get(`${building}/${ghost}/info`);
    expect([realBuilding.statusCode, missingBuilding.statusCode]).toEqual([403, 403]);
    expect(missingBuilding.json()).toEqual(realBuilding.json());
    const realAlert = await clients.cmB.post(`/v1/alerts/${await alertIn('a1', 'open')}/resolve`);
    const missingAlert = await clients.cmB.post(`/v1/alerts/${ghost}/resolve`);
    expect([realAlert.statusCode, missingAlert.statusCode]).toEqual([403, 403]);
    expect(missingAlert.json()).toEqual(realAlert.json());
    const realZone = await clients.smB.get(`/v1/alerts/list?zone_id=${targets.a1.zone}`);
    const missingZone = await clients.smB.get(`/v1/alerts/list?zone_id=${ghost}`);
    expect([realZone.statusCode, missingZone.statusCode]).toEqual([403, 403]);
    expect(missingZone.json()).toEqual(realZone.json());
    const realSite = await clients.smB.get(`/v1/fleet/list?site_id=${w.sites.a1.id}`);
    const missingSite = await clients.smB.get(`/v1/fleet/list?site_id=${ghost}`);
    expect([realSite.statusCode, missingSite.statusCode]).toEqual([403, 403]);
    expect(missingSite.json()).toEqual(realSite.json());
    // A firmware image released to A only, or none: B's own flowbox and place take neither alike.
    const imageOfA = await firmwareForA();
    const ownFlowbox = `${(await flowboxIn('b1', 'ready')).path}/firmware`;
    const placeOfB = {
      customer_id: w.customers.b.id,
      site_id: w.sites.b1.id,
      building_id: targets.b1.building,
      zone_id: targets.b1.zone,
    };
    for (const [real, missing] of [
      [
        await clients.cmB.post(ownFlowbox, { image_id: imageOfA }),
        await clients.cmB.post(ownFlowbox, { image_id: ghost }),
      ],
      [
        await clients.cmB.post('/v1/firmware/rollouts', { image_id: imageOfA, target: placeOfB }),
        await clients.cmB.post('/v1/firmware/rollouts', { image_id: ghost, target: placeOfB }),
      ],
    ]) {
      expect([real!.statusCode, missing!.statusCode]).toEqual([403, 403]);
      expect(missing!.json()).toEqual(real!.json());
    }
  });

  it("lists and exports no flowbox of A in the fleet of B's managers, nor of site a2 to a1's", async () => {
    const serialsOf = async (client: ApiClient) =>
      (await client.get('/v1/fleet/list?limit=200')).json<{
        items: { customer_id: string; site_id: string }[];
      }>().items;
    for (const actor of ['cmB', 'smB'] as const) {
      expect((await serialsOf(clients[actor])).filter((r) => r.customer_id === w.customers.a.id)).toEqual([]);
      expect((await clients[actor].get('/v1/fleet/export.csv')).body).not.toContain('A site');
    }
    const a1 = await serialsOf(clients.smA);
    expect(a1.length).toBeGreaterThan(0);
    expect(a1.filter((r) => r.site_id !== w.sites.a1.id)).toEqual([]);
    expect((await serialsOf(clients.cmA)).some((r) => r.site_id === w.sites.a2.id)).toBe(true);
  });
});

/**
 * A building's water balance (docs/automation.md "Building water balance"): read like the building's
 * consumption (managers of its site), set like the building (`buildings.manage`).
 */
function waterBalanceRows(site: 'a1' | 'a2'): Row[] {
  const building = () => `${A()}/sites/${w.sites[site].id}/buildings/${targets[site].building}`;
  const on = `on site ${site}`;
  return [
    {
      action: `read a building's water balance ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/water_balance?by=hour` }),
      expected: site === 'a1' ? readSiteA1 : readCustomerA,
    },
    {
      action: `set a building's main supply and its unaccounted-water alert ${on}`,
      call: () => ({
        method: 'PUT',
        url: `${building()}/water_balance/settings`,
        body: { main_supply_zone_id: targets[site].zone, alert_liters_per_night: 40, alert_share_pct: null },
      }),
      expected: site === 'a1' ? readSiteA1 : manageInA,
    },
  ];
}

/** Consumption graphs, comparisons and exports (docs/consumption.md): read like their site. */
function consumptionRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const sitePath = () => `${A()}/sites/${w.sites[site].id}`;
  const building = () => `${sitePath()}/buildings/${targets[site].building}`;
  const zone = () => `${building()}/zones/${targets[site].zone}`;
  const on = `on site ${site}`;
  return [
    ...(['day', 'week', 'month', 'year'] as const).map((window): Row => ({
      action: `read a zone's ${window} consumption ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/consumption?window=${window}` }),
      expected: also(read, site, 'euA'),
    })),
    {
      action: `read a building's consumption ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/consumption?window=week` }),
      expected: read,
    },
    {
      action: `read the site's consumption ${on}`,
      call: () => ({ method: 'GET', url: `${sitePath()}/consumption?window=month` }),
      expected: read,
    },
    {
      action: `compare the zones of a building ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/consumption/zones?window=week` }),
      expected: read,
    },
    {
      action: `compare the zones of the site ${on}`,
      call: () => ({ method: 'GET', url: `${sitePath()}/consumption/zones?window=year` }),
      expected: read,
    },
    {
      action: `read the price tiers that bill a zone ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/consumption/price_tiers` }),
      expected: also(read, site, 'euA'),
    },
    {
      action: `export a zone's consumption as CSV ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/consumption/export.csv?window=day` }),
      expected: also(read, site, 'euA'),
    },
    {
      action: `read a zone's leak analytics ${on}`,
      call: () => ({ method: 'GET', url: `${zone()}/leaks` }),
      expected: also(read, site, 'euA'),
    },
    {
      action: `read a building's leak analytics ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/leaks` }),
      expected: read,
    },
    {
      action: `export a building's consumption as CSV ${on}`,
      call: () => ({ method: 'GET', url: `${building()}/consumption/export.csv?window=month` }),
      expected: read,
    },
    {
      action: `export the site's consumption as CSV ${on}`,
      call: () => ({
        method: 'GET',
        url: `${sitePath()}/consumption/export.csv?from=2026-01-01&to=2026-12-31`,
      }),
      expected: read,
    },
    ...(['day', 'year'] as const).map((window): Row => ({
      action: `read a premium zone's ${window} consumption details ${on}`,
      call: async () => ({
        method: 'GET',
        url: `${zonePath(site, await detailsZone(site, 'premium'))}/consumption/details?window=${window}`,
      }),
      expected: read,
    })),
    ...(
      [
        ['basic', 'a basic zone'],
        ['premium_ended', 'a zone whose premium subscription ended'],
        ['none', 'a zone without subscription'],
      ] as const
    ).map(([level, what]): Row => ({
      action: `read the consumption details of ${what} ${on}`,
      call: async () => ({
        method: 'GET',
        url: `${zonePath(site, await detailsZone(site, level))}/consumption/details?window=week`,
      }),
      ...premiumOnly(read),
    })),
  ];
}

/**
 * Claim codes, registrations, end users and plumbers of one site of A (docs/permissions.md): its
 * managers with `end_users.manage`; never an end user or a plumber. A fresh target for each actor.
 */
function peopleRows(site: 'a1' | 'a2'): Row[] {
  const read = site === 'a1' ? readSiteA1 : readCustomerA;
  const codes = () => `${zonePath(site)}/claim_codes`;
  const on = `on site ${site}`;
  const n = () => ++sequence;
  const registration = async () => {
    const [row] = await t.db
      .insert(registrations)
      .values({
        firstname: 'Reg',
        lastname: `Istered${n()}`,
        email: `registered${sequence}@test.io`,
        passwordHash: 'x',
        language: 'en',
        status: 'pending',
        zoneId: targets[site].zone,
      })
      .returning();
    return row!.id;
  };
  const person = async (role: Role) => {
    const k = n();
    const user = await createUser(t.db, {
      email: `person${k}@test.io`,
      role,
      customerId: w.customers.a.id,
      ...(role === ROLES.end_user ? { zoneIds: [targets[site].zone] } : { siteIds: [w.sites[site].id] }),
      firstname: 'Per',
      lastname: `Son${k}`,
    });
    return { id: user.id, name: `Per Son${k}` };
  };
  const family = { end_users: ROLES.end_user, plumbers: ROLES.plumber } as const;
  return [
    {
      action: `list the claim codes of a zone ${on}`,
      call: () => ({ method: 'GET', url: `${codes()}/list` }),
      expected: read,
    },
    {
      action: `issue a claim code for a zone ${on}`,
      call: () => ({ method: 'POST', url: `${codes()}/create`, body: {} }),
      expected: withStatus(read, 200, 201),
    },
    {
      action: `revoke a claim code of a zone ${on}`,
      call: async () => {
        const [row] = await t.db
          .insert(claimCodes)
          .values({
            zoneId: targets[site].zone,
            codeHash: `hash-${n()}`,
            hint: 'ABCD',
            expiresAt: new Date(Date.now() + 86_400_000),
          })
          .returning();
        return { method: 'POST', url: `${codes()}/${row!.id}/revoke` };
      },
      expected: read,
    },
    ...(['approve', 'refuse'] as const).map((decision): Row => ({
      action: `${decision} a registration for a zone ${on}`,
      call: async () => ({ method: 'POST', url: `${A()}/registrations/${await registration()}/${decision}` }),
      expected: read,
    })),
    ...(['end_users', 'plumbers'] as const).flatMap((kind): Row[] => [
      {
        action: `read one of the ${kind} ${on}`,
        call: async () => ({ method: 'GET', url: `${A()}/${kind}/${(await person(family[kind])).id}/info` }),
        expected: read,
      },
      {
        action: `invite one of the ${kind} ${on}`,
        call: () => ({
          method: 'POST',
          url: `${A()}/${kind}/create`,
          body: {
            firstname: 'In',
            lastname: 'Vited',
            email: `invited${n()}@test.io`,
            ...(kind === 'end_users' ? { zone_id: [targets[site].zone] } : { site_id: [w.sites[site].id] }),
          },
        }),
        expected: withStatus(read, 200, 201),
      },
      {
        action: `suspend one of the ${kind} ${on}`,
        call: async () => ({
          method: 'PUT',
          url: `${A()}/${kind}/${(await person(family[kind])).id}/update`,
          body: { suspended: true },
        }),
        expected: read,
      },
      {
        action: `remove one of the ${kind} ${on}`,
        call: async () => {
          const target = await person(family[kind]);
          return {
            method: 'DELETE',
            url: `${A()}/${kind}/${target.id}/delete`,
            body: { confirm_name: target.name },
          };
        },
        expected: withStatus(read, 200, 204),
      },
    ]),
  ];
}

type DetailsLevel = 'premium' | 'basic' | 'premium_ended' | 'none';
/**
 * In the target building of a site, one zone for each subscription the premium details may meet
 * (spec §6), made once: premium, basic, a premium one that ended (none active), none. Their ids.
 */
const detailsZones: Partial<Record<'a1' | 'a2' | 'b1', Promise<Record<DetailsLevel, string>>>> = {};
async function detailsZone(site: 'a1' | 'a2' | 'b1', level: DetailsLevel): Promise<string> {
  const made = (detailsZones[site] ??= (async () => {
    const levels = ['premium', 'basic', 'premium_ended', 'none'] as const;
    const ids = await Promise.all(
      levels.map(async (which) => {
        const [zone] = await t.db
          .insert(zones)
          .values({ ...zoneRow(), buildingId: targets[site].building, name: `Details zone ${which}` })
          .returning();
        if (which !== 'none')
          await t.db.insert(zoneSubscriptions).values({
            zoneId: zone!.id,
            planId: await targetPlan(),
            serviceLevel: which === 'basic' ? 'basic' : 'premium',
            status: which === 'premium_ended' ? 'ended' : 'active',
            startDate: '2026-01-01',
            endDate: which === 'premium_ended' ? '2026-02-01' : null,
            renewalDate: '2027-01-01',
          });
        return [which, zone!.id] as const;
      }),
    );
    return Object.fromEntries(ids) as Record<DetailsLevel, string>;
  })());
  return (await made)[level];
}

/**
 * Routes the matrix does not call, each with its reason: public calls (no tenant), the caller's own
 * session, and the live stream (reached with a ticket, whose call is in the matrix). A new route
 * fails the check below until it is in the matrix, or here with the reason it cannot be.
 */
const NOT_IN_MATRIX: Record<string, string> = {
  'POST /v1/users/token': 'public',
  'POST /v1/users/register': 'public',
  'POST /v1/users/register/confirm': 'public (the emailed link of a registration)',
  'POST /v1/users/request_reset_password': 'public',
  'POST /v1/users/set_password': 'public',
  'POST /v1/users/reset_password': 'public',
  'POST /v1/users/refresh': 'the caller’s own session',
  'POST /v1/users/logout': 'the caller’s own session',
  'GET /v1/health': 'public',
  'GET /v1/health/ready': 'public',
  'GET /v1/health/live': 'public',
  'GET /v1/live/stream': 'reached with a ticket from POST /v1/live/ticket, which is in the matrix',
  'GET /v1/firmware/download/{token}':
    'a device’s call (HTTP Basic serial:secret, no user): its refusals are in firmware/download.test.ts',
};

describe('the matrix covers the API', () => {
  it('calls every route the OpenAPI document lists, or says why not', async (context) => {
    // Only meaningful after the whole matrix ran (not when a filter picked some rows).
    if (casesRun < cases.length) return context.skip();
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const isCalled = (route: string) => {
      const pattern = new RegExp(`^${route.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`);
      return [...called].some((call) => pattern.test(call));
    };
    const missing = routes.filter((route) => !isCalled(route) && !NOT_IN_MATRIX[route]);
    expect(missing).toEqual([]);
    // Issue #8: every alert call, without exception.
    const alertRoutes = routes.filter((route) => route.includes(' /v1/alerts/'));
    expect(alertRoutes).toHaveLength(12);
    expect(alertRoutes.filter((route) => !isCalled(route))).toEqual([]);
  });
});
