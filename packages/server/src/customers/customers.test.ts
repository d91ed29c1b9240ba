import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, sites, users, userSites } from '../db/schema.ts';
import {
  ApiClient,
  createWorldApp,
  createUser,
  loginAs,
  PASSWORD,
  type TestApp,
  type World,
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

const customerPath = (id: string) => `/v1/customers/${id}`;
const sitesPath = (customerId: string) => `/v1/customers/${customerId}/sites`;

async function customerRow(id: string) {
  const [row] = await t.db.select().from(customers).where(eq(customers.id, id));
  return row;
}

const sitesOf = (customerId: string) => t.db.select().from(sites).where(eq(sites.customerId, customerId));

const contact = { name: 'Olga Ops', email: 'ops@customer.io', phone: '+33 1 23 45 67 89' };

describe('customers', () => {
  it('are created by the provider, with no sites and no flowboxes yet', async () => {
    const res = await provider.post('/v1/customers/create', {
      name: '  Brand New  ',
      operations_contact: contact,
      technical_contact: { name: 'Tom Tech' },
      subscription_date: '2025-03-01',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Brand New',
      operations_contact: contact,
      technical_contact: { name: 'Tom Tech', email: '', phone: '' },
      administrative_contact: null,
      subscription_date: '2025-03-01',
      site_count: 0,
      flowbox_count: 0,
      logo: null,
    });
    const info = await provider.get(`${customerPath(res.json().id)}/info`);
    expect(info.json()).toEqual(res.json());
  });

  it('are listed by name with their site count, searched and paged', async () => {
    const res = await provider.get('/v1/customers/list?search=customer');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      total: 2,
      items: [
        { name: 'Customer A', site_count: 2 },
        { name: 'Customer B', site_count: 2 },
      ],
    });
    const page = await provider.get('/v1/customers/list?search=customer&limit=1&offset=1');
    expect(page.json()).toMatchObject({ total: 2, items: [{ name: 'Customer B' }] });
  });

  it('are not listed nor created by customer or site managers', async () => {
    expect((await cmA.get('/v1/customers/list')).statusCode).toBe(403);
    expect((await smA.get('/v1/customers/list')).statusCode).toBe(403);
    const before = await t.db.select().from(customers);
    expect((await cmA.post('/v1/customers/create', { name: 'Mine' })).statusCode).toBe(403);
    expect(await t.db.select().from(customers)).toEqual(before);
  });

  it('show their overview to their own customer manager, not to a site manager', async () => {
    const own = await cmA.get(`${customerPath(w.customers.a.id)}/info`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: w.customers.a.id, name: 'Customer A', site_count: 2 });
    expect((await smA.get(`${customerPath(w.customers.a.id)}/info`)).statusCode).toBe(403);
  });

  it('let their customer manager update the contacts, but not the name or the subscription date', async () => {
    const res = await cmA.put(`${customerPath(w.customers.a.id)}/update`, {
      technical_contact: { name: 'Tina Tech', email: 'tina@customer-a.io', phone: '' },
      administrative_contact: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Customer A',
      technical_contact: { name: 'Tina Tech', email: 'tina@customer-a.io', phone: '' },
      administrative_contact: null,
    });

    const before = await customerRow(w.customers.a.id);
    for (const body of [
      { name: 'Customer A Renamed' },
      { subscription_date: '2020-01-01' },
      { name: 'Sneaky', technical_contact: contact },
    ]) {
      const refused = await cmA.put(`${customerPath(w.customers.a.id)}/update`, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' });
    }
    expect(await customerRow(w.customers.a.id)).toEqual(before);
  });

  it('let the provider update every field', async () => {
    const created = await provider.post('/v1/customers/create', { name: 'Renamable' });
    const res = await provider.put(`${customerPath(created.json().id)}/update`, {
      name: ' Renamed ',
      subscription_date: '2024-02-29',
      operations_contact: contact,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      subscription_date: '2024-02-29',
      operations_contact: contact,
    });
    const cleared = await provider.put(`${customerPath(created.json().id)}/update`, {
      subscription_date: null,
    });
    expect(cleared.json()).toMatchObject({ name: 'Renamed', subscription_date: null });
  });
});

describe('deleting a customer', () => {
  it('needs its name typed, and deletes nothing on a mismatch', async () => {
    const before = await customerRow(w.customers.b.id);
    const en = await provider.delete(`${customerPath(w.customers.b.id)}/delete`, {
      confirm_name: 'Customer',
    });
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({ code: 'errors.names_mismatch', message: "Both names don't match" });
    const fr = await provider.request(
      'DELETE',
      `${customerPath(w.customers.b.id)}/delete`,
      { confirm_name: 'Customer C' },
      { 'accept-language': 'fr' },
    );
    expect(fr.json()).toEqual({
      code: 'errors.names_mismatch',
      message: 'Les deux noms ne correspondent pas',
    });
    expect(await customerRow(w.customers.b.id)).toEqual(before);
    expect(await sitesOf(w.customers.b.id)).toHaveLength(2);
  });

  it('is for the provider only, not even for its own customer manager', async () => {
    const res = await cmA.delete(`${customerPath(w.customers.a.id)}/delete`, { confirm_name: 'Customer A' });
    expect(res.statusCode).toBe(403);
    expect(await customerRow(w.customers.a.id)).toBeDefined();
  });

  it('removes its sites and its managers, whose sessions and logins then fail', async () => {
    const created = await provider.post('/v1/customers/create', { name: 'Doomed Ltd' });
    const doomedId: string = created.json().id;
    const site = await provider.post(`${sitesPath(doomedId)}/create`, { name: 'Doomed site' });
    await createUser(t.db, {
      email: 'cm.doomed@test.io',
      role: ROLES.customer_manager,
      customerId: doomedId,
    });
    await createUser(t.db, {
      email: 'sm.doomed@test.io',
      role: ROLES.site_manager,
      customerId: doomedId,
      siteIds: [site.json().id],
    });
    const sessions = await Promise.all([
      loginAs(t.app, 'cm.doomed@test.io'),
      loginAs(t.app, 'sm.doomed@test.io'),
    ]);

    const res = await provider.delete(`${customerPath(doomedId)}/delete`, { confirm_name: ' Doomed Ltd ' });
    expect(res.statusCode).toBe(204);

    expect(await customerRow(doomedId)).toBeUndefined();
    expect(await sitesOf(doomedId)).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.customerId, doomedId))).toEqual([]);
    expect(await t.db.select().from(userSites).where(eq(userSites.siteId, site.json().id))).toEqual([]);
    for (const session of sessions) expect((await session.get('/v1/users/me')).statusCode).toBe(401);
    for (const email of ['cm.doomed@test.io', 'sm.doomed@test.io']) {
      const login = await new ApiClient(t.app).post('/v1/users/token', { email, password: PASSWORD });
      expect(login.statusCode).toBe(401);
    }
    expect((await provider.get(`${customerPath(doomedId)}/info`)).statusCode).toBe(404);
    // The other customers keep everything.
    expect(await sitesOf(w.customers.a.id)).toHaveLength(2);
    expect((await cmA.get('/v1/users/me')).statusCode).toBe(200);
  });
});

describe('sites', () => {
  it('are created by a customer manager in its customer, and counted on the customer', async () => {
    const res = await cmA.post(`${sitesPath(w.customers.a.id)}/create`, { name: '  A site 3 ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'A site 3',
      customer_id: w.customers.a.id,
      plan: null,
      logo: null,
      building_count: 0,
    });
    expect((await cmA.get(`${customerPath(w.customers.a.id)}/info`)).json().site_count).toBe(3);
    const list = await cmA.get(`${sitesPath(w.customers.a.id)}/list`);
    expect(list.json().items.map((s: { name: string }) => s.name)).toEqual([
      'A site 1',
      'A site 2',
      'A site 3',
    ]);
  });

  it('are searched and paged', async () => {
    const res = await provider.get(`${sitesPath(w.customers.a.id)}/list?search=SITE 2`);
    expect(res.json()).toMatchObject({ total: 1, items: [{ id: w.sites.a2.id }] });
    const page = await provider.get(`${sitesPath(w.customers.a.id)}/list?limit=1&offset=1`);
    expect(page.json()).toMatchObject({ total: 3, items: [{ name: 'A site 2' }] });
  });

  it('are renamed by the provider or their customer manager', async () => {
    const res = await cmA.put(`${sitesPath(w.customers.a.id)}/${w.sites.a2.id}/update`, {
      name: 'A site two',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: w.sites.a2.id, name: 'A site two' });
    const back = await provider.put(`${sitesPath(w.customers.a.id)}/${w.sites.a2.id}/update`, {
      name: 'A site 2',
    });
    expect(back.json().name).toBe('A site 2');
  });

  it('are seen by a site manager only when they are its own', async () => {
    const list = await smA.get(`${sitesPath(w.customers.a.id)}/list`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: w.sites.a1.id }] });
    expect((await smA.get(`${sitesPath(w.customers.a.id)}/${w.sites.a1.id}/info`)).statusCode).toBe(200);
    const other = await smA.get(`${sitesPath(w.customers.a.id)}/${w.sites.a2.id}/info`);
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe('errors.forbidden');
  });

  it('are not managed by a site manager, not even its own', async () => {
    const before = await sitesOf(w.customers.a.id);
    const rename = await smA.put(`${sitesPath(w.customers.a.id)}/${w.sites.a1.id}/update`, { name: 'Mine' });
    const create = await smA.post(`${sitesPath(w.customers.a.id)}/create`, { name: 'Mine too' });
    const remove = await smA.delete(`${sitesPath(w.customers.a.id)}/${w.sites.a1.id}/delete`, {
      confirm_name: 'A site 1',
    });
    expect([rename.statusCode, create.statusCode, remove.statusCode]).toEqual([403, 403, 403]);
    expect(await sitesOf(w.customers.a.id)).toEqual(before);
  });

  it('need their name typed to be deleted', async () => {
    const res = await cmA.delete(`${sitesPath(w.customers.a.id)}/${w.sites.a2.id}/delete`, {
      confirm_name: 'A site',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('errors.names_mismatch');
    expect((await provider.get(`${sitesPath(w.customers.a.id)}/${w.sites.a2.id}/info`)).statusCode).toBe(200);
  });

  it("leave their site managers' site lists when deleted, and the accounts stay", async () => {
    const created = await cmA.post(`${sitesPath(w.customers.a.id)}/create`, { name: 'Short-lived' });
    const siteId: string = created.json().id;
    const manager = await createUser(t.db, {
      email: 'sm.short@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id, siteId],
    });
    const alone = await createUser(t.db, {
      email: 'sm.alone@test.io',
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [siteId],
    });

    const res = await cmA.delete(`${sitesPath(w.customers.a.id)}/${siteId}/delete`, {
      confirm_name: 'Short-lived',
    });
    expect(res.statusCode).toBe(204);

    expect((await provider.get(`${sitesPath(w.customers.a.id)}/${siteId}/info`)).statusCode).toBe(404);
    const managers = `/v1/customers/${w.customers.a.id}/site_managers`;
    expect((await cmA.get(`${managers}/${manager.id}/info`)).json().site_id).toEqual([w.sites.a1.id]);
    expect((await cmA.get(`${managers}/${alone.id}/info`)).json().site_id).toEqual([]);
    const session = await loginAs(t.app, 'sm.alone@test.io');
    expect((await session.get(`${sitesPath(w.customers.a.id)}/list`)).json()).toEqual({
      items: [],
      total: 0,
    });
    expect((await cmA.get(`${customerPath(w.customers.a.id)}/info`)).json().site_count).toBe(3);
  });

  it('of another customer answer 404 under the wrong customer, and are left alone', async () => {
    const wrong = `${sitesPath(w.customers.a.id)}/${w.sites.b1.id}`;
    const before = await sitesOf(w.customers.b.id);
    expect((await provider.get(`${wrong}/info`)).statusCode).toBe(404);
    expect((await provider.put(`${wrong}/update`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await provider.delete(`${wrong}/delete`, { confirm_name: 'B site 1' })).statusCode).toBe(404);
    expect((await cmA.get(`${wrong}/info`)).statusCode).toBe(404);
    expect(await sitesOf(w.customers.b.id)).toEqual(before);
  });

  it('cannot be created under a customer that does not exist', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const res = await provider.post(`${sitesPath(ghost)}/create`, { name: 'Nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('errors.not_found');
  });
});
