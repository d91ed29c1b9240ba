import { PERMISSIONS, ROLES } from '@flowbox/shared';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, flowboxes, userTokens } from '../db/schema.ts';
import { uploadFirmware } from '../firmware/catalogue.testing.ts';
import { subscribe } from '../flowboxes/testing.ts';
import { insertImage } from '../firmware/testing.ts';
import { createLinkToken } from '../auth/tokens.ts';
import {
  ApiClient,
  createTestApp,
  createUser,
  createWorld,
  buildingBody,
  loginAs,
  PASSWORD,
  TINY_PNG,
  zoneBody,
  type TestApp,
  type World,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  provider = await loginAs(t.app, 'provider@test.io');
  cmA = await loginAs(t.app, 'cm.a@test.io');
});
afterAll(() => t.close());

const eventCount = async () => (await t.db.select({ n: count() }).from(events))[0]!.n;
const A = () => `/v1/customers/${w.customers.a.id}`;

/** Runs a change and returns the one event it wrote. */
async function theEventOf(change: () => Promise<{ statusCode: number; body: string }>) {
  const before = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
  t.clock.advance(1000);
  const res = await change();
  expect(res.statusCode, res.body).toBeLessThan(300);
  const added = (await t.db.select().from(events)).filter((e) => !before.has(e.id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

describe('every change made through the product is in the activity log (issue #3)', () => {
  it('customers: created, updated, deleted', async () => {
    const created = await theEventOf(() => provider.post('/v1/customers/create', { name: 'Logged Ltd' }));
    expect(created).toMatchObject({
      actionName: 'created',
      objectName: 'customer',
      objectLabel: 'Logged Ltd',
      origin: 'web',
    });
    expect(created.userId).toBe(w.users.provider.id);
    expect(created.userName).toBe('Pat Provider');
    const id = created.objectId!;
    const updated = await theEventOf(() =>
      provider.put(`/v1/customers/${id}/update`, { name: 'Logged Ltd 2', subscription_date: '2026-01-01' }),
    );
    expect(updated).toMatchObject({
      actionName: 'updated',
      customerId: id,
      changedFields: ['name', 'subscription_date'],
    });
    const deleted = await theEventOf(() =>
      provider.delete(`/v1/customers/${id}/delete`, { confirm_name: 'Logged Ltd 2' }),
    );
    // The customer's own log went with it; the deletion stays, outside any customer.
    expect(deleted).toMatchObject({ actionName: 'deleted', objectId: id, customerId: null });
    expect(await t.db.select().from(events).where(eq(events.customerId, id))).toHaveLength(0);
  });

  it('sites: created, updated, deleted, each scoped to the site', async () => {
    const created = await theEventOf(() => cmA.post(`${A()}/sites/create`, { name: 'Logged site' }));
    expect(created).toMatchObject({
      actionName: 'created',
      objectName: 'site',
      customerId: w.customers.a.id,
      siteId: created.objectId,
    });
    const siteId = created.objectId!;
    const updated = await theEventOf(() =>
      cmA.put(`${A()}/sites/${siteId}/update`, { name: 'Logged site 2' }),
    );
    expect(updated).toMatchObject({
      actionName: 'updated',
      changedFields: ['name'],
      objectLabel: 'Logged site 2',
    });
    const deleted = await theEventOf(() =>
      cmA.delete(`${A()}/sites/${siteId}/delete`, { confirm_name: 'Logged site 2' }),
    );
    expect(deleted).toMatchObject({ actionName: 'deleted', siteId, customerId: w.customers.a.id });
  });

  it.each([
    ['flovea_manager', '/v1/flovea_managers', null],
    ['customer_manager', 'A/customer_managers', 'a'],
    ['site_manager', 'A/site_managers', 'a'],
  ] as const)(
    '%s: created, updated, permissions updated, deleted',
    async (object, prefixTemplate, customer) => {
      const prefix = prefixTemplate.replace('A', A());
      const extra = object === 'site_manager' ? { site_id: [w.sites.a1.id] } : {};
      const email = `${object}.logged@test.io`;
      const created = await theEventOf(() =>
        provider.post(`${prefix}/create`, { firstname: 'Log', lastname: 'Ged', email, ...extra }),
      );
      const customerId = customer ? w.customers.a.id : null;
      expect(created).toMatchObject({
        actionName: 'created',
        objectName: object,
        objectLabel: 'Log Ged',
        customerId,
      });
      const id = created.objectId!;
      const updated = await theEventOf(() =>
        provider.put(`${prefix}/${id}/update`, { lastname: 'Gedd', language: 'fr' }),
      );
      expect(updated).toMatchObject({ actionName: 'updated', changedFields: ['language', 'lastname'] });
      const permissions = await theEventOf(() =>
        provider.put(`${prefix}/${id}/update`, { permissions: { 'valves.control': 'denied' } }),
      );
      expect(permissions).toMatchObject({
        actionName: 'permissions_updated',
        changedFields: ['valves.control'],
      });
      const deleted = await theEventOf(() =>
        provider.delete(`${prefix}/${id}/delete`, { confirm_name: 'Log Gedd' }),
      );
      expect(deleted).toMatchObject({ actionName: 'deleted', objectId: id });
    },
  );

  it('permissions: only those that changed, once, when a whole form is saved (issue 30)', async () => {
    const prefix = `${A()}/customer_managers`;
    const created = await theEventOf(() =>
      provider.post(`${prefix}/create`, {
        firstname: 'Perm',
        lastname: 'Issions',
        email: 'perm.logged@test.io',
      }),
    );
    const id = created.objectId!;
    // The permissions screen sends every permission: two of them changed.
    const form = Object.fromEntries(PERMISSIONS.map((p) => [p, 'authorised'])) as Record<string, string>;
    form['valves.control'] = 'denied';
    form['alerts.manage'] = 'denied';
    const changed = await theEventOf(() => provider.put(`${prefix}/${id}/update`, { permissions: form }));
    expect(changed).toMatchObject({
      actionName: 'permissions_updated',
      changedFields: ['alerts.manage', 'valves.control'],
    });
    // The same form again changes nothing, and logs nothing.
    const before = await t.db.select().from(events);
    expect((await provider.put(`${prefix}/${id}/update`, { permissions: form })).statusCode).toBe(200);
    expect(await t.db.select().from(events)).toHaveLength(before.length);
  });

  it('passwords: changed, reset by link, set from an invitation; never the password itself', async () => {
    const user = await createUser(t.db, {
      email: 'pw.logged@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.a.id,
    });
    const api = await loginAs(t.app, 'pw.logged@test.io');
    const changed = await theEventOf(() =>
      api.put('/v1/users/update_password', { current_password: PASSWORD, password: 'changed-pass-1' }),
    );
    expect(changed).toMatchObject({
      actionName: 'password_changed',
      objectName: 'user',
      userId: user.id,
      customerId: w.customers.a.id,
      changedFields: [],
    });
    for (const [kind, action, path] of [
      ['reset', 'password_reset', '/v1/users/reset_password'],
      ['invite', 'invitation_accepted', '/v1/users/set_password'],
    ] as const) {
      const { token, hash } = createLinkToken();
      await t.db.insert(userTokens).values({
        userId: user.id,
        kind,
        tokenHash: hash,
        expiresAt: new Date(t.clock.now().getTime() + 60_000),
      });
      const event = await theEventOf(() =>
        new ApiClient(t.app).post(path, { token, password: 'linked-pass-1' }),
      );
      expect(event).toMatchObject({ actionName: action, userId: user.id });
      expect(JSON.stringify(event)).not.toContain('linked-pass-1');
    }
  });

  it('buildings, floors, zones and water points: each change scoped to where it happened', async () => {
    const smA = await loginAs(t.app, 'sm.a@test.io');
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id };
    const building = await theEventOf(() =>
      smA.post(`${site}/buildings/create`, buildingBody({ name: 'Logged' })),
    );
    expect(building).toMatchObject({
      actionName: 'created',
      objectName: 'building',
      objectLabel: 'Logged',
      userId: w.users.smA.id,
      ...scope,
      buildingId: building.objectId,
      zoneId: null,
    });
    const buildingId = building.objectId!;
    const b = `${site}/buildings/${buildingId}`;
    const inBuilding = { ...scope, buildingId };
    expect(await theEventOf(() => smA.put(`${b}/update`, { city: 'Nice', nbfloor: 2 }))).toMatchObject({
      actionName: 'updated',
      changedFields: ['city', 'nbfloor'],
      ...inBuilding,
    });
    expect(await theEventOf(() => smA.upload(`${b}/images/plan`, TINY_PNG))).toMatchObject({
      actionName: 'updated',
      objectName: 'building',
      changedFields: ['plan'],
      ...inBuilding,
    });

    const floor = await theEventOf(() => smA.post(`${b}/floors/create`, { label: 'L1' }));
    expect(floor).toMatchObject({
      actionName: 'created',
      objectName: 'floor',
      objectLabel: 'L1',
      ...inBuilding,
    });
    const f = `${b}/floors/${floor.objectId}`;
    expect(await theEventOf(() => smA.put(`${f}/update`, { occupants: 4 }))).toMatchObject({
      actionName: 'updated',
      objectName: 'floor',
      changedFields: ['occupants'],
    });

    const zone = await theEventOf(() => smA.post(`${b}/zones/create`, zoneBody({ name: 'Z1' })));
    const zoneId = zone.objectId!;
    const inZone = { ...inBuilding, zoneId };
    expect(zone).toMatchObject({ actionName: 'created', objectName: 'zone', ...inZone });
    const z = `${b}/zones/${zoneId}`;
    expect(await theEventOf(() => smA.put(`${z}/update`, { occupants: 12 }))).toMatchObject({
      actionName: 'updated',
      changedFields: ['occupants'],
      ...inZone,
    });
    const point = await theEventOf(() =>
      smA.post(`${z}/water_points/create`, { label: 'WC', type: 'toilet' }),
    );
    expect(point).toMatchObject({ actionName: 'created', objectName: 'water_point', ...inZone });
    const p = `${z}/water_points/${point.objectId}`;
    expect(await theEventOf(() => smA.put(`${p}/update`, { location: 'Hall' }))).toMatchObject({
      actionName: 'updated',
      changedFields: ['location'],
      ...inZone,
    });

    // The zone's log holds the zone's lines and its water points', newest first.
    const zoneLog = (await smA.get(`${z}/events`)).json().items as {
      object_name: string;
      action_name: string;
    }[];
    expect(zoneLog.map((e) => `${e.object_name} ${e.action_name}`)).toEqual([
      'water_point updated',
      'water_point created',
      'zone updated',
      'zone created',
    ]);
    const buildingLog = (await smA.get(`${b}/events`)).json().items as unknown[];
    expect(buildingLog).toHaveLength(9);

    expect(await theEventOf(() => smA.delete(`${p}/delete`, { confirm_name: 'WC' }))).toMatchObject({
      actionName: 'deleted',
      objectName: 'water_point',
    });
    expect(await theEventOf(() => smA.delete(`${z}/delete`, { confirm_name: 'Z1' }))).toMatchObject({
      actionName: 'deleted',
      objectName: 'zone',
      ...inZone,
    });
    expect(await theEventOf(() => smA.delete(`${f}/delete`, { confirm_name: 'L1' }))).toMatchObject({
      actionName: 'deleted',
      objectName: 'floor',
    });
    expect(await theEventOf(() => smA.delete(`${b}/delete`, { confirm_name: 'Logged' }))).toMatchObject({
      actionName: 'deleted',
      objectName: 'building',
      ...inBuilding,
    });
    // The lines stay in the site's log after the building is gone.
    const siteLog = (await smA.get(`${site}/events?object_name=building`)).json().items as unknown[];
    expect(siteLog.length).toBeGreaterThanOrEqual(4);
  });

  it('customer and site images: the logo or plan change is logged on its record', async () => {
    expect(await theEventOf(() => cmA.upload(`${A()}/logo`, TINY_PNG))).toMatchObject({
      actionName: 'updated',
      objectName: 'customer',
      changedFields: ['logo'],
      customerId: w.customers.a.id,
    });
    expect(
      await theEventOf(() => cmA.upload(`${A()}/sites/${w.sites.a2.id}/images/logo`, TINY_PNG)),
    ).toMatchObject({
      actionName: 'updated',
      objectName: 'site',
      changedFields: ['logo'],
      siteId: w.sites.a2.id,
    });
  });

  it('pricing plans and subscriptions: each change logged, plans in no customer, renewals by the system', async () => {
    const body = {
      name: 'Logged plan',
      regions: ['FR'],
      billing_type: 'monthly',
      acquisition_type: 'acquisition',
      currency: 'EUR',
      volume_unit: 'm3',
      from_date: '2025-01-01',
      ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '2' }],
    };
    const plan = await theEventOf(() => provider.post('/v1/pricing_plans/create', body));
    expect(plan).toMatchObject({ actionName: 'created', objectName: 'pricing_plan', customerId: null });
    const url = `/v1/pricing_plans/${plan.objectId}`;
    expect(await theEventOf(() => provider.put(`${url}/update`, { name: 'Logged plan' }))).toMatchObject({
      actionName: 'updated',
      changedFields: ['name'],
    });
    expect(
      await theEventOf(() => provider.put(`${url}/update`, { new_price: true, from_date: '2025-06-01' })),
    ).toMatchObject({ actionName: 'price_changed', changedFields: ['from_date'] });

    const site = `${A()}/sites/${w.sites.a2.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Billed' }))).json().id;
    const zoneId = (await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody())).json().id;
    const subscription = `${site}/buildings/${b}/zones/${zoneId}/subscription/update`;
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a2.id, buildingId: b, zoneId };
    const choice = { pricing_plan_id: plan.objectId, service_level: 'basic' };
    expect(await theEventOf(() => cmA.put(subscription, choice))).toMatchObject({
      actionName: 'created',
      objectName: 'subscription',
      userId: w.users.cmA.id,
      ...scope,
    });
    expect(
      await theEventOf(() => cmA.put(subscription, { ...choice, service_level: 'premium' })),
    ).toMatchObject({
      actionName: 'updated',
      changedFields: ['service_level'],
      ...scope,
    });
    const renewal = await theEventOf(async () => {
      t.clock.advance(40 * 86_400_000);
      await t.services.subscriptions.renewDue();
      return { statusCode: 200, body: '' };
    });
    expect(renewal).toMatchObject({ actionName: 'renewed', origin: 'system', userId: null, ...scope });
    provider = await loginAs(t.app, 'provider@test.io');
    cmA = await loginAs(t.app, 'cm.a@test.io');
    expect(
      await theEventOf(() => provider.delete(`${url}/delete`, { confirm_name: 'Logged plan' })),
    ).toMatchObject({
      actionName: 'archived',
      objectName: 'pricing_plan',
    });
    const before = await eventCount();
    const failures = [
      await provider.post('/v1/pricing_plans/create', { ...body, ranges: [] }),
      await provider.put(`${url}/update`, { ranges: body.ranges }),
      await cmA.put(subscription, { ...choice, service_level: 'gold' }),
      await (await loginAs(t.app, 'sm.a@test.io')).put(subscription, choice),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);
  });

  it('writes nothing when a hierarchy change fails', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Failing' }))).json()
      .id as string;
    const z = (await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody())).json().id as string;
    const before = await eventCount();
    const failures = [
      await cmA.post(`${site}/buildings/create`, buildingBody({ timezone: 'Nowhere/Land' })),
      await cmA.put(`${site}/buildings/${b}/update`, { nbfloor: 0 }),
      await cmA.delete(`${site}/buildings/${b}/delete`, { confirm_name: 'Failing!' }),
      await cmA.post(`${site}/buildings/${b}/floors/create`, { label: '' }),
      await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody({ floor_id: w.sites.a2.id })),
      await cmA.delete(`${site}/buildings/${b}/zones/${z}/delete`, { confirm_name: 'nope' }),
      await cmA.post(`${site}/buildings/${b}/zones/${z}/water_points/create`, { label: 'X', type: 'bidet' }),
      await cmA.upload(`${site}/buildings/${b}/images/plan`, Buffer.from('<svg/>')),
      await (await loginAs(t.app, 'cm.b@test.io')).put(`${site}/buildings/${b}/update`, { name: 'Hijacked' }),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);
  });

  it('writes nothing when the change fails', async () => {
    const before = await eventCount();
    const failures = [
      await provider.post('/v1/customers/create', { name: '' }),
      await provider.delete(`${A()}/delete`, { confirm_name: 'not the name' }),
      await cmA.put(`${A()}/update`, { name: 'Not allowed' }),
      await cmA.post(`${A()}/site_managers/create`, {
        firstname: 'X',
        lastname: 'Y',
        email: 'x.y@test.io',
        site_id: [w.sites.b1.id],
      }),
      await cmA.post(`${A()}/customer_managers/create`, {
        firstname: 'X',
        lastname: 'Y',
        email: 'cm.b@test.io',
      }),
      await provider.delete(`${A()}/sites/${w.sites.a1.id}/delete`, { confirm_name: 'A site 9' }),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);
  });
});

describe('reading the activity log', () => {
  let customerId: string;
  let siteIds: string[];

  beforeAll(async () => {
    const created = await provider.post('/v1/customers/create', { name: 'Paged Co' });
    customerId = created.json().id;
    siteIds = [];
    for (let i = 0; i < 6; i++) {
      t.clock.advance(1000);
      siteIds.push(
        (await provider.post(`/v1/customers/${customerId}/sites/create`, { name: `Paged ${i}` })).json().id,
      );
    }
    t.clock.advance(1000);
    await provider.put(`/v1/customers/${customerId}/sites/${siteIds[0]}/update`, { name: 'Paged 0 renamed' });
  });

  it('lists newest first, page by page with a cursor, with no gap and no repeat', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/customers/${customerId}/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await provider.get(url);
      expect(res.statusCode).toBe(200);
      const page = res.json() as { items: { id: string; created_at: string }[]; next_cursor: string | null };
      seen.push(...page.items.map((e) => e.id));
      const times = page.items.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
  });

  it('filters by the four facets and by dates', async () => {
    const get = async (query: string) =>
      (await provider.get(`/v1/customers/${customerId}/events?${query}`)).json().items as {
        action_name: string;
        object_name: string;
      }[];
    expect(await get('action_name=updated')).toHaveLength(1);
    expect((await get('object_name=site')).every((e) => e.object_name === 'site')).toBe(true);
    expect(await get('object_name=site')).toHaveLength(7);
    expect(await get(`user_id=${w.users.provider.id}`)).toHaveLength(8);
    expect(await get(`user_id=${w.users.cmA.id}`)).toHaveLength(0);
    expect(await get('origin=web')).toHaveLength(8);
    expect(await get('origin=device')).toHaveLength(0);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(await get(`from=${today}&to=${today}`)).toHaveLength(8);
    expect(await get('from=2000-01-01&to=2000-01-02')).toHaveLength(0);
  });

  it("lists a site's events at the site level", async () => {
    const res = await provider.get(`/v1/customers/${customerId}/sites/${siteIds[0]}/events`);
    expect(res.json().items.map((e: { action_name: string }) => e.action_name)).toEqual([
      'updated',
      'created',
    ]);
  });

  it('refuses a cursor it did not make, an unknown facet and an end before the start', async () => {
    for (const query of [
      'cursor=bm9wZQ',
      'action_name=exploded',
      'from=2026-02-02&to=2026-02-01',
      'limit=0',
    ]) {
      const res = await provider.get(`/v1/customers/${customerId}/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('errors.validation');
    }
  });
});

describe('the activity log is scoped like everything else', () => {
  it("keeps one customer's log from another's managers", async () => {
    const cmB = await loginAs(t.app, 'cm.b@test.io', 'fr');
    const res = await cmB.get(`${A()}/events`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Récupération de la resource non autorisée');
    expect((await cmB.get(`${A()}/sites/${w.sites.a1.id}/events`)).statusCode).toBe(403);
  });

  it("shows a site manager its own sites' logs only, and not the customer's", async () => {
    const smA = await loginAs(t.app, 'sm.a@test.io');
    expect((await smA.get(`${A()}/sites/${w.sites.a1.id}/events`)).statusCode).toBe(200);
    expect((await smA.get(`${A()}/sites/${w.sites.a2.id}/events`)).statusCode).toBe(403);
    expect((await smA.get(`${A()}/events`)).statusCode).toBe(403);
  });

  it("shows a customer manager its own customer's log", async () => {
    const res = await cmA.get(`${A()}/events`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.every((e: { customer_id: string }) => e.customer_id === w.customers.a.id)).toBe(
      true,
    );
  });
});

describe('flowboxes in the activity log (issue #4)', () => {
  it('pairing steps and their ends, each with its scope; a command by its outcome', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const building = (
      await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Flowbox log' }))
    ).json().id as string;
    const zoneId = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json()
      .id as string;
    const zone = `${site}/buildings/${building}/zones/${zoneId}`;
    await subscribe(t, zoneId);
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: building, zoneId };
    const prepare = (serial: string) => () =>
      cmA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: 'f'.repeat(43) });
    /** The device's announcement (step 2) arrives over MQTT; here it is written as ingest would. */
    const announce = (id: string) =>
      t.db
        .update(flowboxes)
        .set({ pairingState: 'pending', model: 'one_inch_v1', waterTemperature: 'cold' })
        .where(eq(flowboxes.id, id));

    const prepared = await theEventOf(prepare('LOG-1'));
    expect(prepared).toMatchObject({
      actionName: 'pairing_prepared',
      objectName: 'flowbox',
      objectLabel: 'LOG-1',
      origin: 'web',
      userName: 'Cara Amanager',
      ...scope,
    });
    const path = `${zone}/flowboxes/${prepared.objectId}`;
    await announce(prepared.objectId!);
    expect(await theEventOf(() => cmA.post(`${path}/validate`))).toMatchObject({
      actionName: 'pairing_validated',
    });

    const before = await eventCount();
    const sent = await cmA.post(`${path}/commands/send`, { name: 'valve_close' });
    expect(sent.statusCode, sent.body).toBe(202);
    // A command waiting for its acknowledgement changes nothing yet: no event until it is applied or expires.
    expect(await eventCount()).toBe(before);
    const beforeExpiry = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
    t.clock.advance(121_000);
    await t.services.commands.dispatchDue();
    // The expiry, and the flowbox_dysfunction alert it opens (docs/alerts.md), in one transaction.
    const afterExpiry = (await t.db.select().from(events)).filter((e) => !beforeExpiry.has(e.id));
    expect(afterExpiry.map((e) => [e.actionName, e.origin]).sort()).toEqual([
      ['alert_opened', 'system'],
      ['command_expired', 'system'],
    ]);
    expect(afterExpiry.find((e) => e.actionName === 'command_expired')).toMatchObject({
      changedFields: ['valve_close'],
    });

    expect(await theEventOf(() => cmA.post(`${path}/unpair`))).toMatchObject({
      actionName: 'unpaired',
      ...scope,
    });

    const refused = await theEventOf(prepare('LOG-2'));
    await announce(refused.objectId!);
    expect(await theEventOf(() => cmA.post(`${zone}/flowboxes/${refused.objectId}/refuse`))).toMatchObject({
      actionName: 'pairing_refused',
    });
    const detached = await theEventOf(prepare('LOG-3'));
    expect(
      await theEventOf(() =>
        cmA.delete(`${zone}/flowboxes/${detached.objectId}/detach`, { confirm_name: 'LOG-3' }),
      ),
    ).toMatchObject({ actionName: 'detached', objectLabel: 'LOG-3' });
  });

  it('writes nothing when a pairing call is refused', async () => {
    const before = await eventCount();
    const res = await cmA.post(
      `${A()}/sites/${w.sites.a1.id}/buildings/${GHOST_ID}/zones/${GHOST_ID}/flowboxes/pair`,
      {
        serial: 'LOG-4',
        factory_secret: 'f'.repeat(43),
      },
    );
    expect(res.statusCode).toBe(404);
    expect(await eventCount()).toBe(before);
  });
});

const GHOST_ID = '00000000-0000-4000-8000-000000000000';

describe('automatic closing in the activity log (issue #8)', () => {
  it('margins saved by a user, triggered by the system, exited by a user; nothing on failure', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ volume_unit: 'liter' }))).json()
      .id as string;
    const zone = (
      await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody({ name: 'Logged zone' }))
    ).json();
    const path = `${site}/buildings/${b}/zones/${zone.id}`;
    const margins = {
      automatic_closing_enabled: true,
      volume_margin_enabled: true,
      volume_margin: 50,
      duration_margin_enabled: false,
      duration_margin_minutes: null,
    };
    const saved = await theEventOf(() => cmA.put(`${path}/automation/update`, margins));
    expect(saved).toMatchObject({
      actionName: 'automatic_closing_updated',
      objectName: 'zone',
      objectId: zone.id,
      origin: 'web',
      zoneId: zone.id,
      changedFields: ['automatic_closing_enabled', 'volume_margin', 'volume_margin_enabled'],
    });

    const before = await eventCount();
    const failures = [
      await cmA.put(`${path}/automation/update`, { ...margins, volume_margin: 1 }),
      await cmA.put(`${path}/automation/update`, { ...margins, volume_margin_enabled: false }),
      await cmA.post(`${path}/automation/exit`, { confirm_name: 'Logged zone' }),
      await (await loginAs(t.app, 'cm.b@test.io')).put(`${path}/automation/update`, margins),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);

    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({ serial: 'LOG-AC-1', zoneId: zone.id, pairingState: 'ready' })
      .returning();
    const now = t.clock.now();
    await t.db.transaction((tx) =>
      t.services.automation.detectInTransaction(tx, [
        {
          zoneId: zone.id,
          flowboxId: flowbox!.id,
          measuredAt: now,
          placedAt: now,
          intervalS: 60,
          volumeMl: 60_000,
          flowS: 60,
        },
      ]),
    );
    const triggered = await t.db
      .select()
      .from(events)
      .where(eq(events.actionName, 'automatic_closing_triggered'));
    expect(triggered).toEqual([
      expect.objectContaining({ origin: 'system', userId: null, zoneId: zone.id, changedFields: ['volume'] }),
    ]);

    const afterTrigger = await eventCount();
    const wrongName = await cmA.post(`${path}/automation/exit`, { confirm_name: 'Logged' });
    expect(wrongName.statusCode).toBe(400);
    expect(await eventCount()).toBe(afterTrigger);
    // The exit also withdraws the safety close still waiting for the device (docs/automation.md):
    // that command's line says why it ended, by the user who exited, and no dysfunction alert follows.
    const beforeExit = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
    const exit = await cmA.post(`${path}/automation/exit`, { confirm_name: 'Logged zone' });
    expect(exit.statusCode, exit.body).toBeLessThan(300);
    const exited = (await t.db.select().from(events)).filter((e) => !beforeExit.has(e.id));
    expect(exited.map((e) => [e.actionName, e.origin, e.userName, e.zoneId]).sort()).toEqual([
      ['automatic_closing_exited', 'web', 'Cara Amanager', zone.id],
      ['command_expired', 'web', 'Cara Amanager', zone.id],
    ]);
    expect(exited.find((e) => e.actionName === 'command_expired')?.changedFields).toContain(
      'automatic_closing_exited',
    );
  });
});

describe('scheduled closings in the activity log (issue #8)', () => {
  it('created, updated, deleted by a user; each window closed and opened by the system; nothing on failure', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ timezone: 'Europe/Paris' }))).json()
      .id as string;
    const zone = (
      await cmA.post(
        `${site}/buildings/${b}/zones/create`,
        zoneBody({ name: 'Scheduled zone', scheduled_closing_authorised: true }),
      )
    ).json();
    const path = `${site}/buildings/${b}/zones/${zone.id}/schedules`;
    const body = {
      label: 'Lunch break',
      date_start: '2030-06-03',
      date_end: '2030-06-03',
      closing_time: '12:00',
      opening_time: '13:00',
      recurring: false,
    };
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: b, zoneId: zone.id };
    const created = await theEventOf(() => cmA.post(`${path}/create`, body));
    expect(created).toMatchObject({
      actionName: 'created',
      objectName: 'schedule',
      objectLabel: 'Lunch break',
      origin: 'web',
      userName: 'Cara Amanager',
      ...scope,
    });
    const id = created.objectId!;
    const updated = await theEventOf(() =>
      cmA.put(`${path}/${id}/update`, { ...body, opening_time: '14:00' }),
    );
    expect(updated).toMatchObject({ actionName: 'updated', changedFields: ['opening_time'], ...scope });

    const before = await eventCount();
    const failures = [
      await cmA.post(`${path}/create`, { ...body, date_end: '2030-06-02' }),
      await cmA.put(`${path}/${id}/update`, { ...body, recurring: true }),
      await cmA.delete(`${path}/${id}/delete`, { confirm_name: 'Lunch' }),
      await (await loginAs(t.app, 'cm.b@test.io')).post(`${path}/create`, body),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);

    // The job: 12:00 and 14:00 in Paris (summer time, UTC+2) on 3 June 2030.
    t.clock.advance(Date.parse('2030-06-03T10:00:30Z') - t.clock.now().getTime());
    await t.services.scheduleRunner.runDue();
    t.clock.advance(Date.parse('2030-06-03T12:00:30Z') - t.clock.now().getTime());
    await t.services.scheduleRunner.runDue();
    const system = await t.db.select().from(events).where(eq(events.objectId, id));
    expect(
      system.filter((e) => e.origin === 'system').map((e) => [e.actionName, e.userId, e.changedFields]),
    ).toEqual([
      ['scheduled_closing_started', null, ['no_flowbox']],
      ['scheduled_closing_ended', null, ['no_flowbox']],
    ]);
    // Years later, the session has expired: sign in again.
    const later = await loginAs(t.app, 'cm.a@test.io');
    const deleted = await theEventOf(() =>
      later.delete(`${path}/${id}/delete`, { confirm_name: 'Lunch break' }),
    );
    expect(deleted).toMatchObject({ actionName: 'deleted', objectName: 'schedule', ...scope });
  });
});

describe('alerts in the activity log (issue #8)', () => {
  // The scheduled closings above moved the clock years on: sign in again.
  beforeAll(async () => {
    provider = await loginAs(t.app, 'provider@test.io');
    cmA = await loginAs(t.app, 'cm.a@test.io');
  });

  it('opened by the system, silenced, unsilenced and resolved by users, resolved automatically; a repeat and a refusal write nothing', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Alerting' }))).json()
      .id as string;
    const zoneId = (
      await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody({ name: 'Alert zone' }))
    ).json().id as string;
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: b, zoneId };
    const raise = (cause: string) =>
      t.db.transaction((tx) =>
        t.services.alerts.raise(tx, { category: 'flowbox_dysfunction', zoneId, cause, details: {} }),
      );
    const opened = await theEventOf(async () => {
      await raise('logged-cause');
      return { statusCode: 200, body: '' };
    });
    expect(opened).toMatchObject({
      actionName: 'alert_opened',
      objectName: 'alert',
      objectLabel: 'Alert zone',
      origin: 'system',
      userId: null,
      changedFields: ['flowbox_dysfunction'],
      ...scope,
    });
    const url = `/v1/alerts/${opened.objectId}`;
    const repeat = await eventCount();
    await raise('logged-cause');
    expect(await eventCount()).toBe(repeat);

    const smA = await loginAs(t.app, 'sm.a@test.io');
    for (const [client, transition, action, who] of [
      [smA, 'silence', 'alert_silenced', 'Sam Asite'],
      [smA, 'unsilence', 'alert_unsilenced', 'Sam Asite'],
      [cmA, 'resolve', 'alert_resolved', 'Cara Amanager'],
    ] as const) {
      expect(await theEventOf(() => client.post(`${url}/${transition}`))).toMatchObject({
        actionName: action,
        objectName: 'alert',
        objectId: opened.objectId,
        origin: 'web',
        userName: who,
        changedFields: ['flowbox_dysfunction'],
        ...scope,
      });
    }

    const before = await eventCount();
    const failures = [
      await cmA.post(`${url}/resolve`),
      await cmA.post(`${url}/silence`),
      await cmA.post(`/v1/alerts/${GHOST_ID}/resolve`),
      await (await loginAs(t.app, 'cm.b@test.io')).post(`${url}/unsilence`),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);

    await raise('clearing-cause');
    const cleared = await theEventOf(async () => {
      await t.db.transaction((tx) => t.services.alerts.clear(tx, { zoneId, cause: 'clearing-cause' }));
      return { statusCode: 200, body: '' };
    });
    expect(cleared).toMatchObject({
      actionName: 'alert_resolved',
      origin: 'system',
      userId: null,
      changedFields: ['flowbox_dysfunction', 'automatic'],
      ...scope,
    });
  });

  it('a category setting changed by a provider manager, in no customer; nothing when refused', async () => {
    const changed = await theEventOf(() =>
      provider.put('/v1/alerts/settings/maintenance/update', { email: false, premium_only: true }),
    );
    expect(changed).toMatchObject({
      actionName: 'updated',
      objectName: 'alert_category',
      objectLabel: 'maintenance',
      origin: 'web',
      userId: w.users.provider.id,
      customerId: null,
      changedFields: ['email', 'premium_only'],
    });
    const before = await eventCount();
    const failures = [
      await cmA.put('/v1/alerts/settings/maintenance/update', { email: true }),
      await provider.put('/v1/alerts/settings/maintenance/update', { subject: { en: '', fr: 'x' } }),
      await provider.put('/v1/alerts/settings/fire/update', { email: true }),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);
    await provider.put('/v1/alerts/settings/maintenance/update', { email: true, premium_only: false });
  });
});

describe('the firmware catalogue in the activity log (issue 17)', () => {
  it('an upload, a release, a deprecation and a withdrawal: in no customer when released to all, else naming each customer released to; nothing when refused', async () => {
    const created = await theEventOf(() => uploadFirmware(provider, { version: '3.1.4' }));
    expect(created).toMatchObject({
      actionName: 'created',
      objectName: 'firmware_image',
      objectLabel: 'flowbox-one_inch_v1-3.1.4.bin',
      userId: w.users.provider.id,
      origin: 'web',
      customerId: null,
    });
    const url = `/v1/firmware/images/${created.objectId}`;
    // Released to one customer: the line names it (in its scope, so its activity log shows it).
    const released = await theEventOf(() => provider.patch(url, { released_to: [w.customers.a.id] }));
    expect(released).toMatchObject({
      actionName: 'updated',
      changedFields: ['released_to'],
      customerId: w.customers.a.id,
    });
    expect(await theEventOf(() => provider.patch(url, { status: 'deprecated' }))).toMatchObject({
      actionName: 'deprecated',
      changedFields: ['status'],
      customerId: w.customers.a.id,
    });
    expect(await theEventOf(() => provider.patch(url, { status: 'withdrawn' }))).toMatchObject({
      actionName: 'withdrawn',
      changedFields: ['status'],
      customerId: w.customers.a.id,
    });
    // Uploaded for two customers: a line naming each.
    const before2 = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
    const two = await uploadFirmware(provider, {
      version: '3.1.7',
      releasedTo: [w.customers.a.id, w.customers.b.id],
    });
    expect(two.statusCode, two.body).toBe(201);
    const lines = (await t.db.select().from(events)).filter((e) => !before2.has(e.id));
    expect(lines.map((l) => [l.actionName, l.objectLabel, l.customerId]).sort()).toEqual(
      [
        ['created', 'flowbox-one_inch_v1-3.1.7.bin', w.customers.a.id],
        ['created', 'flowbox-one_inch_v1-3.1.7.bin', w.customers.b.id],
      ].sort(),
    );
    const before = await eventCount();
    const failures = [
      await provider.patch(url, { status: 'active' }),
      await cmA.patch(url, { notes_en: 'Mine' }),
      await uploadFirmware(provider, { version: '3.1.4' }),
      await uploadFirmware(provider, { version: '3.1.5', fileName: 'flowbox-one_inch_v1-3.1.4.bin' }),
      await uploadFirmware(cmA, { version: '3.1.6' }),
    ];
    for (const res of failures) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    // A patch that changes nothing writes no line either.
    expect((await provider.patch(url, { status: 'withdrawn' })).statusCode).toBe(200);
    expect(await eventCount()).toBe(before);
  });
});

describe('firmware in the activity log (issue #17)', () => {
  beforeAll(async () => {
    provider = await loginAs(t.app, 'provider@test.io');
    cmA = await loginAs(t.app, 'cm.a@test.io');
  });

  it("a flowbox's update requested by a user, each state by its origin; a rollout's life by users and the system; nothing when refused", async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const b = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Firmware' }))).json()
      .id as string;
    const zoneId = (
      await cmA.post(`${site}/buildings/${b}/zones/create`, zoneBody({ name: 'Firmware zone' }))
    ).json().id as string;
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: b, zoneId };
    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({
        serial: 'LOG-FW-1',
        zoneId,
        pairingState: 'ready',
        model: 'one_inch_v1',
        firmwareVersion: '2.4.0',
        connected: true,
      })
      .returning();
    const image = await insertImage(t.db, { version: '5.0.0' });
    const path = `${site}/buildings/${b}/zones/${zoneId}/flowboxes/${flowbox!.id}/firmware`;

    const requested = await theEventOf(() => cmA.post(path, { image_id: image.id }));
    expect(requested).toMatchObject({
      actionName: 'firmware_update',
      objectName: 'flowbox',
      objectId: flowbox!.id,
      origin: 'web',
      userName: 'Cara Amanager',
      changedFields: ['requested', '5.0.0'],
      ...scope,
    });
    const before = await eventCount();
    const refused = await cmA.post(path, { image_id: image.id });
    expect(refused.statusCode).toBe(409);
    expect(await eventCount()).toBe(before);
    const t0 = t.clock.now();
    t.clock.advance(3_600_000);
    await t.services.firmwareUpdates.timeOutSilent();
    const [timedOut] = (await t.db.select().from(events).where(eq(events.objectId, flowbox!.id))).filter(
      (e) => e.createdAt > t0,
    );
    expect(timedOut).toMatchObject({ origin: 'system', changedFields: ['timeout', '5.0.0'], userName: null });

    cmA = await loginAs(t.app, 'cm.a@test.io');
    // Creating logs the rollout's line (the user's), counting its devices: none of its own (issue 30).
    const seen = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
    const res = await cmA.post('/v1/firmware/rollouts', {
      image_id: image.id,
      target: { customer_id: w.customers.a.id, site_id: w.sites.a1.id, building_id: b, zone_id: zoneId },
    });
    expect(res.statusCode, res.body).toBe(201);
    const lines = (await t.db.select().from(events)).filter((e) => !seen.has(e.id));
    const created = lines.find((e) => e.actionName === 'rollout_created');
    expect(lines).toHaveLength(1);
    expect(created).toMatchObject({
      actionName: 'rollout_created',
      objectName: 'firmware_rollout',
      origin: 'web',
      changedFields: ['5.0.0', 'flowboxes=1', 'waves=1', 'left_out=0'],
      ...scope,
    });
    const rollout = created!.objectId!;
    for (const [action, logged] of [
      ['pause', 'rollout_paused'],
      ['resume', 'rollout_resumed'],
    ] as const)
      expect(
        await theEventOf(() => cmA.post(`/v1/firmware/rollouts/${rollout}/${action}`, {})),
      ).toMatchObject({
        actionName: logged,
        origin: 'web',
        userName: 'Cara Amanager',
      });
    // Cancelling logs the rollout's line (the user's), counting the waiting device it cancelled.
    const known = new Set((await t.db.select({ id: events.id }).from(events)).map((e) => e.id));
    expect((await cmA.post(`/v1/firmware/rollouts/${rollout}/cancel`, {})).statusCode).toBe(200);
    const added = (await t.db.select().from(events)).filter((e) => !known.has(e.id));
    expect(added.map((e) => [e.actionName, e.origin, e.changedFields])).toEqual([
      ['rollout_cancelled', 'web', ['cancelled=1', 'succeeded=0', 'failed=0']],
    ]);
  });
});

describe('the plumber directory in the activity log (issue 18)', () => {
  beforeAll(async () => {
    provider = await loginAs(t.app, 'provider@test.io');
    cmA = await loginAs(t.app, 'cm.a@test.io');
  });

  it("a customer's entry in its customer's log, a shared one in no customer's; nothing when refused", async () => {
    const created = await theEventOf(() =>
      cmA.post('/v1/plumbers/create', { company: 'Logged Plumbing', customer_id: w.customers.a.id }),
    );
    expect(created).toMatchObject({
      actionName: 'created',
      objectName: 'plumber_entry',
      objectLabel: 'Logged Plumbing',
      customerId: w.customers.a.id,
      siteId: null,
      userName: 'Cara Amanager',
      origin: 'web',
    });
    const id = created.objectId!;
    const updated = await theEventOf(() =>
      cmA.put(`/v1/plumbers/${id}/update`, { phone: '0102030405', latitude: 45, longitude: 4 }),
    );
    expect(updated).toMatchObject({
      actionName: 'updated',
      changedFields: ['latitude', 'longitude', 'phone'],
    });
    const before = await eventCount();
    const refused = [
      await cmA.delete(`/v1/plumbers/${id}/delete`, { confirm_name: 'Wrong' }),
      await cmA.post('/v1/plumbers/create', { company: 'Shared by a customer?' }),
      await cmA.post('/v1/plumbers/create', { company: '', customer_id: w.customers.a.id }),
    ];
    for (const res of refused) expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(before);
    expect(
      await theEventOf(() => cmA.delete(`/v1/plumbers/${id}/delete`, { confirm_name: 'Logged Plumbing' })),
    ).toMatchObject({ actionName: 'deleted', objectId: id, customerId: w.customers.a.id });

    const shared = await theEventOf(() => provider.post('/v1/plumbers/create', { company: 'Shared Logged' }));
    expect(shared).toMatchObject({ actionName: 'created', objectName: 'plumber_entry', customerId: null });
  });

  it('a site placed on the map is an update of its coordinates', async () => {
    const updated = await theEventOf(() =>
      cmA.put(`${A()}/sites/${w.sites.a2.id}/update`, { latitude: 45.75, longitude: 4.85 }),
    );
    expect(updated).toMatchObject({ actionName: 'updated', changedFields: ['latitude', 'longitude'] });
  });
});

describe('end users and plumbers in the activity log (issue 18)', () => {
  it('their changes name them, with the place they happened; a refused change writes nothing; they read no log', async () => {
    const site = `${A()}/sites/${w.sites.a1.id}`;
    const building = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Their log' }))).json()
      .id as string;
    const zoneId = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json()
      .id as string;
    const zone = `${site}/buildings/${building}/zones/${zoneId}`;
    await subscribe(t, zoneId);
    const scope = { customerId: w.customers.a.id, siteId: w.sites.a1.id, buildingId: building, zoneId };

    const resident = await createUser(t.db, {
      email: 'log.resident@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zoneId],
      firstname: 'Rita',
      lastname: 'Resident',
    });
    await createUser(t.db, {
      email: 'log.plumber@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
      firstname: 'Paul',
      lastname: 'Plumber',
    });
    const endUser = await loginAs(t.app, 'log.resident@test.io');
    const plumber = await loginAs(t.app, 'log.plumber@test.io');

    // The manager's grant is itself a line of the log, on the end user.
    const granted = await theEventOf(() =>
      cmA.put(`${A()}/end_users/${resident.id}/update`, { permissions: { 'valves.control': 'authorised' } }),
    );
    expect(granted).toMatchObject({ objectId: resident.id, userName: 'Cara Amanager', origin: 'web' });

    expect(
      await theEventOf(() => endUser.put(`${zone}/update`, { leak_detection_mode: true })),
    ).toMatchObject({
      actionName: 'updated',
      objectName: 'zone',
      userName: 'Rita Resident',
      origin: 'web',
      ...scope,
    });
    expect(await theEventOf(() => plumber.put(`${zone}/update`, { maintenance_mode: true }))).toMatchObject({
      actionName: 'updated',
      objectName: 'zone',
      userName: 'Paul Plumber',
      ...scope,
    });
    expect(
      await theEventOf(() =>
        plumber.post(`${zone}/flowboxes/pair`, { serial: 'LOG-P1', factory_secret: 'f'.repeat(43) }),
      ),
    ).toMatchObject({
      actionName: 'pairing_prepared',
      objectLabel: 'LOG-P1',
      userName: 'Paul Plumber',
      ...scope,
    });

    // Refused: a rename by the end user, a deletion by the plumber. Nothing is written.
    const before = await eventCount();
    expect((await endUser.put(`${zone}/update`, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await plumber.delete(`${zone}/delete`, { confirm_name: 'x' })).statusCode).toBe(403);
    expect(await eventCount()).toBe(before);

    // Neither reads a log: not the customer's, not the site's, not the building's.
    for (const client of [endUser, plumber]) {
      for (const path of [`${A()}/events`, `${site}/events`, `${site}/buildings/${building}/events`]) {
        expect((await client.get(path)).statusCode, path).toBe(403);
      }
    }
    // The zone's managers read those lines.
    const lines = (await cmA.get(`${site}/buildings/${building}/events`)).json().items as {
      user_name: string;
    }[];
    expect(lines.map((line) => line.user_name)).toEqual(
      expect.arrayContaining(['Rita Resident', 'Paul Plumber']),
    );
  });
});
