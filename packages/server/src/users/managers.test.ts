import { ROLES } from '@flowbox/shared';
import { count, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, sites, users, userSites } from '../db/schema.ts';
import { ApiClient, createWorldApp, createUser, loginAs, type TestApp, type World } from '../test/harness.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
});
afterAll(() => t.close());

const customerManagers = (customerId = w.customers.a.id) => `/v1/customers/${customerId}/customer_managers`;
const siteManagers = (customerId = w.customers.a.id) => `/v1/customers/${customerId}/site_managers`;
const floveaManagers = '/v1/flovea_managers';

async function rowCounts() {
  const rows = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;
  return { users: await rows(users), emails: await rows(emails), userSites: await rows(userSites) };
}

async function userRow(id: string) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

const emailsTo = (to: string) => t.db.select().from(emails).where(eq(emails.to, to));

describe('listing managers', () => {
  it("lists one customer's customer managers, with the total", async () => {
    const res = await provider.get(`${customerManagers()}/list`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((u: { email: string }) => u.email)).toEqual(['cm.a@test.io']);
    expect(res.json().total).toBe(1);
    const other = await provider.get(`${customerManagers(w.customers.b.id)}/list`);
    expect(other.json().items.map((u: { email: string }) => u.email)).toEqual(['cm.b@test.io']);
  });

  it('searches first name, last name and email without case, and pages the results by last name', async () => {
    for (const n of [3, 1, 2]) {
      await createUser(t.db, {
        email: `pager${n}@test.io`,
        role: ROLES.flovea_manager,
        firstname: 'Pia',
        lastname: `Pager${n}`,
      });
    }
    const firstPage = await provider.get(`${floveaManagers}/list?search=PAGER&limit=2`);
    expect(firstPage.statusCode).toBe(200);
    expect(firstPage.json().total).toBe(3);
    expect(firstPage.json().items.map((u: { lastname: string }) => u.lastname)).toEqual(['Pager1', 'Pager2']);
    const lastPage = await provider.get(`${floveaManagers}/list?search=pager&limit=2&offset=2`);
    expect(lastPage.json()).toMatchObject({ total: 3, items: [{ lastname: 'Pager3' }] });
    const byEmail = await provider.get(`${floveaManagers}/list?search=pager2@test`);
    expect(byEmail.json().items.map((u: { email: string }) => u.email)).toEqual(['pager2@test.io']);
  });

  it('takes the search text literally: % and _ are not wildcards', async () => {
    const res = await provider.get(`${floveaManagers}/list?search=${encodeURIComponent('%')}`);
    expect(res.json()).toEqual({ items: [], total: 0 });
    const underscore = await provider.get(`${floveaManagers}/list?search=_`);
    expect(underscore.json().total).toBe(0);
  });

  it('filters site managers by site_id (spec §7)', async () => {
    const onA2 = await createUser(t.db, {
      email: 'sm.a2@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a2.id],
      lastname: 'Onsitetwo',
    });
    const onBoth = await createUser(t.db, {
      email: 'sm.both@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id, w.sites.a2.id],
      lastname: 'Onboth',
    });
    const emailsOf = async (query: string) =>
      (await cmA.get(`${siteManagers()}/list${query}`)).json().items.map((u: { email: string }) => u.email);
    expect(await emailsOf(`?site_id=${w.sites.a1.id}`)).toEqual(['sm.a@test.io', 'sm.both@test.io']);
    expect(await emailsOf(`?site_id=${w.sites.a2.id}`)).toEqual(['sm.both@test.io', 'sm.a2@test.io']);
    expect(await emailsOf('')).toEqual(['sm.a@test.io', 'sm.both@test.io', 'sm.a2@test.io']);
    // A site of another customer names nobody here.
    expect(await emailsOf(`?site_id=${w.sites.b1.id}`)).toEqual([]);
    const both = (await cmA.get(`${siteManagers()}/${onBoth.id}/info`)).json();
    expect(both.site_id).toEqual([w.sites.a1.id, w.sites.a2.id].sort());
    await t.db.delete(users).where(eq(users.id, onA2.id));
    await t.db.delete(users).where(eq(users.id, onBoth.id));
  });
});

describe('reading one manager', () => {
  it('answers the complete record, never the password', async () => {
    const res = await provider.get(`${customerManagers()}/${w.users.cmA.id}/info`);
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({
      id: w.users.cmA.id,
      firstname: 'Cara',
      lastname: 'Amanager',
      email: 'cm.a@test.io',
      role: ROLES.customer_manager,
      role_name: 'customer_manager',
      customer_id: w.customers.a.id,
      site_id: [],
      status: 'active',
      language: 'en',
    });
    expect(user.permissions['managers.manage']).toBe('authorised');
    expect(user.alerts_settings.water_temperature).toEqual({ email: true });
    expect(JSON.stringify(user)).not.toMatch(/argon2|password/i);
  });

  it('answers 404 for a user of another family or another customer', async () => {
    expect((await provider.get(`${customerManagers()}/${w.users.smA.id}/info`)).statusCode).toBe(404);
    expect((await provider.get(`${floveaManagers}/${w.users.cmA.id}/info`)).statusCode).toBe(404);
    expect((await provider.get(`${customerManagers()}/${w.users.cmB.id}/info`)).statusCode).toBe(404);
  });

  it('lets a site manager read its own record, and no other manager', async () => {
    const own = await smA.get(`${siteManagers()}/${w.users.smA.id}/info`);
    expect(own.statusCode).toBe(200);
    expect(own.json().site_id).toEqual([w.sites.a1.id]);
    expect((await smA.get(`${customerManagers()}/${w.users.cmA.id}/info`)).statusCode).toBe(403);
  });

  it('refuses a manager reaching its own record through another family or customer, like any other refusal', async () => {
    expect((await cmA.get(`${customerManagers(w.customers.b.id)}/${w.users.cmA.id}/info`)).statusCode).toBe(
      403,
    );
    expect((await cmA.get(`${siteManagers()}/${w.users.cmA.id}/info`)).statusCode).toBe(403);
    const update = await smA.put(`${customerManagers()}/${w.users.smA.id}/update`, { firstname: 'Sneaky' });
    expect(update.statusCode).toBe(403);
  });
});

describe('creating a manager', () => {
  it('creates an invited customer manager and emails the invitation', async () => {
    const before = await rowCounts();
    const res = await cmA.post(`${customerManagers()}/create`, {
      firstname: '  Nina ',
      lastname: ' Newcomer  ',
      email: ' Nina.Newcomer@Test.io ',
      address: '1 rue de la Paix',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      firstname: 'Nina',
      lastname: 'Newcomer',
      email: 'nina.newcomer@test.io',
      role: ROLES.customer_manager,
      customer_id: w.customers.a.id,
      language: 'en',
      address: '1 rue de la Paix',
      status: 'invited',
      last_logged_in: null,
    });
    const [mail] = await emailsTo('nina.newcomer@test.io');
    expect(mail).toMatchObject({ kind: 'invitation' });
    expect(mail?.text).toContain('http://flowbox.test/set-password?token=');
    expect(await rowCounts()).toEqual({ ...before, users: before.users + 1, emails: before.emails + 1 });
  });

  it('refuses an email already used by anyone, whatever its case, in English and in French', async () => {
    const before = await rowCounts();
    const en = await provider.post(`${siteManagers(w.customers.b.id)}/create`, {
      firstname: 'Copy',
      lastname: 'Cat',
      email: 'CM.A@test.io',
      site_id: [w.sites.b1.id],
    });
    expect(en.statusCode).toBe(409);
    expect(en.json()).toEqual({
      code: 'errors.email_taken',
      message: 'This email is already used by another user.',
    });
    const fr = await provider.request(
      'POST',
      `${floveaManagers}/create`,
      { firstname: 'Copy', lastname: 'Cat', email: 'sm.b@test.io' },
      { 'accept-language': 'fr' },
    );
    expect(fr.statusCode).toBe(409);
    expect(fr.json()).toEqual({ code: 'errors.email_taken', message: 'Cet email est déjà pris' });
    expect(await rowCounts()).toEqual(before);
  });

  it('creates a site manager on sites of its customer', async () => {
    const res = await cmA.post(`${siteManagers()}/create`, {
      firstname: 'Sid',
      lastname: 'Twosites',
      email: 'sid@test.io',
      language: 'fr',
      site_id: [w.sites.a2.id, w.sites.a1.id],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      role: ROLES.site_manager,
      language: 'fr',
      customer_id: w.customers.a.id,
    });
    expect(res.json().site_id).toEqual([w.sites.a1.id, w.sites.a2.id].sort());
    expect(res.json().permissions['sites.manage']).toBe('denied');
    const [mail] = await emailsTo('sid@test.io');
    expect(mail?.subject).toBe('Votre compte Flowbox Manager');
  });

  it('refuses a site of another customer with errors.invalid_site_list, and writes nothing', async () => {
    const before = await rowCounts();
    const res = await cmA.post(`${siteManagers()}/create`, {
      firstname: 'Sly',
      lastname: 'Crosser',
      email: 'sly@test.io',
      site_id: [w.sites.a1.id, w.sites.b1.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'errors.invalid_site_list',
      message: 'One of the selected sites does not belong to this customer',
    });
    expect(await rowCounts()).toEqual(before);
    expect(await emailsTo('sly@test.io')).toEqual([]);
  });

  it('needs at least one site for a site manager', async () => {
    const res = await cmA.post(`${siteManagers()}/create`, {
      firstname: 'No',
      lastname: 'Site',
      email: 'nosite@test.io',
      site_id: [],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'site_id', message: 'Please select at least one site' }]);
  });

  it('takes the role and the customer from the path, never from the body', async () => {
    const res = await cmA.post(`${customerManagers()}/create`, {
      firstname: 'Mallory',
      lastname: 'Sneaky',
      email: 'mallory@test.io',
      role: ROLES.flovea_manager,
      customer_id: w.customers.b.id,
      password_hash: 'x',
      status: 'active',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      role: ROLES.customer_manager,
      customer_id: w.customers.a.id,
      status: 'invited',
    });
    expect((await userRow(res.json().id))?.passwordHash).toBeNull();
  });
});

describe('updating a manager', () => {
  it("updates someone else's record, trims the names and answers no tokens", async () => {
    const other = await createUser(t.db, {
      email: 'other.cm@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.a.id,
      firstname: 'Otto',
      lastname: 'Other',
    });
    const res = await provider.put(`${customerManagers()}/${other.id}/update`, {
      firstname: '  Otto-Karl ',
      lastname: ' Otherman ',
      language: 'fr',
      alert_notification_enabled: false,
      alerts_settings: { maintenance: { email: false } },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['user']);
    expect(body.user).toMatchObject({
      firstname: 'Otto-Karl',
      lastname: 'Otherman',
      language: 'fr',
      alert_notification_enabled: false,
    });
    expect(body.user.alerts_settings.maintenance).toEqual({ email: false });
    expect(body.user.alerts_settings.water_temperature).toEqual({ email: true });
  });

  it('answers new working tokens when a manager updates itself (spec §7)', async () => {
    const session = await loginAs(t.app, 'cm.a@test.io');
    const res = await session.put(`${customerManagers()}/${w.users.cmA.id}/update`, {
      firstname: ' Carla ',
      address: '2 place du Marché',
    });
    expect(res.statusCode).toBe(200);
    const { user, access_token, refresh_token } = res.json();
    expect(user).toMatchObject({ firstname: 'Carla', address: '2 place du Marché' });
    expect(access_token).toEqual(expect.any(String));
    expect(refresh_token).toEqual(expect.any(String));
    const withNewToken = new ApiClient(t.app);
    withNewToken.token = access_token;
    expect((await withNewToken.get('/v1/users/me')).json().firstname).toBe('Carla');
    const refreshed = await new ApiClient(t.app).request('POST', '/v1/users/refresh', undefined, {
      authorization: `Bearer ${refresh_token}`,
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('answers tokens to a provider manager and to a site manager updating themselves', async () => {
    const own = await provider.put(`${floveaManagers}/${w.users.provider.id}/update`, {
      lastname: 'Provider',
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().access_token).toEqual(expect.any(String));
    const session = await loginAs(t.app, 'sm.a@test.io');
    const site = await session.put(`${siteManagers()}/${w.users.smA.id}/update`, { language: 'fr' });
    expect(site.statusCode).toBe(200);
    expect(site.json()).toMatchObject({ user: { language: 'fr', site_id: [w.sites.a1.id] } });
    expect(site.json().refresh_token).toEqual(expect.any(String));
  });

  it('refuses to let a manager change its own permissions or site list, and changes nothing', async () => {
    const before = await userRow(w.users.cmA.id);
    const permissions = await cmA.put(`${customerManagers()}/${w.users.cmA.id}/update`, {
      firstname: 'Changed',
      permissions: { 'sites.manage': 'denied' },
    });
    expect(permissions.statusCode).toBe(403);
    expect(permissions.json()).toEqual({
      code: 'errors.forbidden',
      message: 'Unauthorized resource recovery',
    });
    expect(await userRow(w.users.cmA.id)).toEqual(before);

    const sitesBefore = await t.db.select().from(userSites).where(eq(userSites.userId, w.users.smA.id));
    const siteList = await smA.put(`${siteManagers()}/${w.users.smA.id}/update`, {
      site_id: [w.sites.a1.id, w.sites.a2.id],
    });
    expect(siteList.statusCode).toBe(403);
    expect(await t.db.select().from(userSites).where(eq(userSites.userId, w.users.smA.id))).toEqual(
      sitesBefore,
    );
  });

  it('moves a site manager to other sites of its customer, never to a site of another customer', async () => {
    const mover = await createUser(t.db, {
      email: 'mover@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
    });
    const moved = await cmA.put(`${siteManagers()}/${mover.id}/update`, { site_id: [w.sites.a2.id] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().user.site_id).toEqual([w.sites.a2.id]);
    const crossed = await cmA.put(`${siteManagers()}/${mover.id}/update`, {
      site_id: [w.sites.b2.id],
      firstname: 'Crossed',
    });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().code).toBe('errors.invalid_site_list');
    expect((await cmA.get(`${siteManagers()}/${mover.id}/info`)).json()).toMatchObject({
      firstname: 'Test',
      site_id: [w.sites.a2.id],
    });
  });

  it("refuses an email that another user has, and accepts the manager's own", async () => {
    const taken = await provider.put(`${customerManagers()}/${w.users.cmA.id}/update`, {
      email: 'cm.b@test.io',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('errors.email_taken');
    const same = await provider.put(`${customerManagers()}/${w.users.cmA.id}/update`, {
      email: 'CM.A@test.io',
    });
    expect(same.statusCode).toBe(200);
  });

  it('answers 404 when the manager is not of that family or that customer', async () => {
    const before = await userRow(w.users.cmB.id);
    const res = await provider.put(`${customerManagers()}/${w.users.cmB.id}/update`, { firstname: 'Moved' });
    expect(res.statusCode).toBe(404);
    expect(await userRow(w.users.cmB.id)).toEqual(before);
  });
});

describe('deleting a manager', () => {
  it('needs the name typed as "firstname lastname" (spec §5), and deletes nothing otherwise', async () => {
    const victim = await createUser(t.db, {
      email: 'victim@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.a.id,
      firstname: 'Vic',
      lastname: 'Tim',
    });
    const en = await cmA.delete(`${customerManagers()}/${victim.id}/delete`, { confirm_name: 'Vic Tom' });
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({ code: 'errors.names_mismatch', message: "Both names don't match" });
    const fr = await cmA.request(
      'DELETE',
      `${customerManagers()}/${victim.id}/delete`,
      { confirm_name: 'Tim Vic' },
      { 'accept-language': 'fr' },
    );
    expect(fr.statusCode).toBe(400);
    expect(fr.json()).toEqual({
      code: 'errors.names_mismatch',
      message: 'Les deux noms ne correspondent pas',
    });
    expect(await userRow(victim.id)).toBeDefined();
  });

  it('deletes the manager and ends its sessions: its token answers 401', async () => {
    const victim = await createUser(t.db, {
      email: 'leaver@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
      firstname: 'Lee',
      lastname: 'Leaver',
    });
    const session = await loginAs(t.app, 'leaver@test.io');
    expect((await session.get('/v1/users/me')).statusCode).toBe(200);
    const res = await cmA.delete(`${siteManagers()}/${victim.id}/delete`, { confirm_name: ' Lee Leaver ' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await userRow(victim.id)).toBeUndefined();
    expect((await session.get('/v1/users/me')).statusCode).toBe(401);
    const login = await new ApiClient(t.app).post('/v1/users/token', {
      email: 'leaver@test.io',
      password: 'correct-horse-1',
    });
    expect(login.statusCode).toBe(401);
  });

  it('refuses to delete oneself', async () => {
    const res = await provider.delete(`${floveaManagers}/${w.users.provider.id}/delete`, {
      confirm_name: 'Pat Provider',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'errors.cannot_delete_self',
      message: 'You cannot delete your own account',
    });
    expect(await userRow(w.users.provider.id)).toBeDefined();
  });

  it('answers 404 for a manager of another customer, and keeps it', async () => {
    const res = await provider.delete(`${customerManagers()}/${w.users.cmB.id}/delete`, {
      confirm_name: 'Cole Bmanager',
    });
    expect(res.statusCode).toBe(404);
    expect(await userRow(w.users.cmB.id)).toBeDefined();
  });
});

describe('per-user permissions (spec §6)', () => {
  let restricted: ApiClient;
  let restrictedId: string;
  let colleagueId: string;

  beforeAll(async () => {
    const [r, colleague] = await Promise.all([
      createUser(t.db, {
        email: 'restricted@test.io',
        role: ROLES.customer_manager,
        customerId: w.customers.a.id,
        firstname: 'Rita',
        lastname: 'Restricted',
      }),
      createUser(t.db, {
        email: 'colleague@test.io',
        role: ROLES.customer_manager,
        customerId: w.customers.a.id,
        firstname: 'Col',
        lastname: 'League',
      }),
    ]);
    restrictedId = r.id;
    colleagueId = colleague.id;
    restricted = await loginAs(t.app, 'restricted@test.io');
  });

  it('are set by the provider through the update call, merged with the others', async () => {
    const res = await provider.put(`${customerManagers()}/${restrictedId}/update`, {
      permissions: { 'managers.manage': 'denied', 'sites.manage': 'denied' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.permissions).toMatchObject({
      'managers.manage': 'denied',
      'sites.manage': 'denied',
      'valves.control': 'authorised',
    });
    const again = await provider.put(`${customerManagers()}/${restrictedId}/update`, {
      permissions: { 'valves.control': 'denied' },
    });
    expect(again.json().user.permissions).toMatchObject({
      'managers.manage': 'denied',
      'valves.control': 'denied',
    });
  });

  it('a denied managers.manage refuses creating, updating others and deleting, and changes nothing', async () => {
    const before = await rowCounts();
    const colleagueBefore = await userRow(colleagueId);
    const create = await restricted.post(`${customerManagers()}/create`, {
      firstname: 'New',
      lastname: 'One',
      email: 'new.one@test.io',
    });
    const createSite = await restricted.post(`${siteManagers()}/create`, {
      firstname: 'New',
      lastname: 'Two',
      email: 'new.two@test.io',
      site_id: [w.sites.a1.id],
    });
    const update = await restricted.put(`${customerManagers()}/${colleagueId}/update`, { firstname: 'X' });
    const remove = await restricted.delete(`${customerManagers()}/${colleagueId}/delete`, {
      confirm_name: 'Col League',
    });
    for (const res of [create, createSite, update, remove]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('errors.forbidden');
    }
    expect(await rowCounts()).toEqual(before);
    expect(await userRow(colleagueId)).toEqual(colleagueBefore);
  });

  it('a denied managers.manage still lets the manager read managers and update itself', async () => {
    expect((await restricted.get(`${customerManagers()}/list`)).statusCode).toBe(200);
    const res = await restricted.put(`${customerManagers()}/${restrictedId}/update`, {
      lastname: 'Still-Me',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.lastname).toBe('Still-Me');
  });

  it('a denied sites.manage refuses creating, updating and deleting sites, and changes nothing', async () => {
    const sitesPath = `/v1/customers/${w.customers.a.id}/sites`;
    const before = await t.db.select().from(sites);
    const create = await restricted.post(`${sitesPath}/create`, { name: 'Forbidden site' });
    const update = await restricted.put(`${sitesPath}/${w.sites.a2.id}/update`, { name: 'Renamed' });
    const remove = await restricted.delete(`${sitesPath}/${w.sites.a2.id}/delete`, {
      confirm_name: 'A site 2',
    });
    expect([create.statusCode, update.statusCode, remove.statusCode]).toEqual([403, 403, 403]);
    expect(await t.db.select().from(sites)).toEqual(before);
    expect((await restricted.get(`${sitesPath}/list`)).json().total).toBe(2);
  });

  it('take effect at once and can be given back', async () => {
    await provider.put(`${customerManagers()}/${restrictedId}/update`, {
      permissions: { 'managers.manage': 'authorised' },
    });
    const res = await restricted.put(`${customerManagers()}/${colleagueId}/update`, { firstname: 'Colin' });
    expect(res.statusCode).toBe(200);
  });

  it('cannot lift a role limit: an authorised sites.manage gives a site manager nothing', async () => {
    const granted = await cmA.put(`${siteManagers()}/${w.users.smA.id}/update`, {
      permissions: { 'sites.manage': 'authorised', 'managers.manage': 'authorised' },
    });
    expect(granted.statusCode).toBe(200);
    const session = await loginAs(t.app, 'sm.a@test.io');
    const res = await session.post(`/v1/customers/${w.customers.a.id}/sites/create`, { name: 'Sneaky' });
    expect(res.statusCode).toBe(403);
    const manager = await session.post(`${siteManagers()}/create`, {
      firstname: 'A',
      lastname: 'B',
      email: 'ab@test.io',
      site_id: [w.sites.a1.id],
    });
    expect(manager.statusCode).toBe(403);
  });
});
