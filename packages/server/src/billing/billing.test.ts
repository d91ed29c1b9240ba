import { eq } from 'drizzle-orm';
import { addBillingPeriods, localDate } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, zones } from '../db/schema.ts';
import {
  buildingBody,
  createWorldApp,
  loginAs,
  siteManagerWithout,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { hasSubscription, pricingOn, requirePremium } from './zone-billing.ts';

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;
/** A zone in a building in France billed in euros, and one in Japan where no plan is offered. */
let zone: string;
let zoneId: string;
let japanZone: string;

const DAY = 86_400_000;
const TIERS = [
  { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
  { volume_start: '10', volume_end: '30', price_per_unit: '2' },
  { volume_start: '30', volume_end: null, price_per_unit: '3.25' },
];
const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Water France',
  regions: ['FR', 'BE'],
  billing_type: 'monthly',
  acquisition_type: 'pay_as_you_go_fee',
  currency: 'EUR',
  volume_unit: 'm3',
  from_date: '2025-01-01',
  ranges: TIERS,
  ...overrides,
});
const parisToday = () => localDate(t.clock.now(), 'Europe/Paris');

async function createPlan(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await provider.post('/v1/pricing_plans/create', planBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function zoneIn(country: string, currency: string, timezone: string) {
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(
    `${site}/buildings/create`,
    buildingBody({ name: `Building ${country}`, country, currency, timezone }),
  );
  const path = `${site}/buildings/${building.json().id}`;
  const created = await cmA.post(`${path}/zones/create`, zoneBody());
  return { url: `${path}/zones/${created.json().id}/subscription`, id: created.json().id as string };
}

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
  cmB = await loginAs(t.app, 'cm.b@test.io');
  ({ url: zone, id: zoneId } = await zoneIn('FR', 'EUR', 'Europe/Paris'));
  ({ url: japanZone } = await zoneIn('JP', 'JPY', 'Asia/Tokyo'));
});
afterAll(() => t.close());

describe('pricing plans', () => {
  it('are created by a provider manager with their tiers, version 1, and an activity-log line', async () => {
    const res = await provider.post(
      '/v1/pricing_plans/create',
      planBody({ name: 'Created plan', is_default: true }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Created plan',
      is_default: true,
      regions: ['FR', 'BE'],
      version: 1,
      from_date: '2025-01-01',
      billing_type: 'monthly',
      acquisition_type: 'pay_as_you_go_fee',
      currency: 'EUR',
      volume_unit: 'm3',
      ranges: TIERS,
      archived_at: null,
      subscription_count: 0,
      versions: [{ version: 1, until_date: null, archived_at: null }],
    });
    const [line] = await t.db.select().from(events).where(eq(events.objectId, res.json().id));
    expect(line).toMatchObject({ actionName: 'created', objectName: 'pricing_plan', customerId: null });
  });

  it("are the provider managers' only (spec §6)", async () => {
    const id = await createPlan({ name: 'Hidden plan' });
    for (const client of [cmA, smA, cmB]) {
      expect((await client.get('/v1/pricing_plans/list')).statusCode).toBe(403);
      expect((await client.get(`/v1/pricing_plans/${id}/info`)).statusCode).toBe(403);
      expect((await client.post('/v1/pricing_plans/create', planBody())).statusCode).toBe(403);
      expect((await client.get('/v1/subscriptions/overview')).statusCode).toBe(403);
    }
  });

  it('need subscriptions.manage to be written', async () => {
    const { users } = await import('../db/schema.ts');
    await t.db
      .update(users)
      .set({ permissions: { 'subscriptions.manage': 'denied' } })
      .where(eq(users.id, w.users.provider.id));
    const res = await provider.post('/v1/pricing_plans/create', planBody());
    await t.db.update(users).set({ permissions: {} }).where(eq(users.id, w.users.provider.id));
    expect(res.statusCode).toBe(403);
    expect((await provider.get('/v1/pricing_plans/list')).statusCode).toBe(200);
  });

  it('refuse broken ranges in place, in French too (spec §5)', async () => {
    const fr = await loginAs(t.app, 'provider@test.io', 'fr');
    const res = await fr.post(
      '/v1/pricing_plans/create',
      planBody({
        ranges: [
          { volume_start: '1', volume_end: '10', price_per_unit: '1' },
          { volume_start: '12', volume_end: '20', price_per_unit: '1' },
          { volume_start: '20', volume_end: '15', price_per_unit: '1' },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: 'ranges.0.volume_start', message: 'La première tranche commence à 0' },
      { path: 'ranges.1.volume_start', message: 'Les volumes doivent être contigus' },
      { path: 'ranges.2.volume_end', message: 'Le volume de fin doit être supérieur au volume de début' },
      {
        path: 'ranges.2.volume_end',
        message: 'La dernière tranche doit avoir « Sans limite de fin » activé',
      },
    ]);
  });

  it('are corrected in place while no zone has subscribed', async () => {
    const id = await createPlan({ name: 'Draft plan' });
    const ranges = [{ volume_start: '0', volume_end: null, price_per_unit: '0.0035' }];
    const res = await provider.put(`/v1/pricing_plans/${id}/update`, { ranges, volume_unit: 'liter' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      version: 1,
      volume_unit: 'liter',
      ranges,
      versions: [{ version: 1 }],
    });
  });

  it('have one default per country: a new default there unsets the other', async () => {
    const first = await createPlan({ name: 'Default FR', is_default: true, regions: ['FR'] });
    const swiss = await createPlan({
      name: 'Default CH',
      is_default: true,
      regions: ['CH'],
      currency: 'CHF',
    });
    const second = await createPlan({ name: 'New default', is_default: true, regions: ['fr', 'LU'] });
    const read = async (id: string) => (await provider.get(`/v1/pricing_plans/${id}/info`)).json();
    expect((await read(first)).is_default).toBe(false);
    expect((await read(swiss)).is_default).toBe(true);
    expect(await read(second)).toMatchObject({ is_default: true, regions: ['FR', 'LU'] });
  });
});

describe("a zone's subscription", () => {
  let planId: string;
  let otherPlanId: string;

  beforeAll(async () => {
    planId = await createPlan({ name: 'Subscribed plan', regions: ['FR'] });
    otherPlanId = await createPlan({ name: 'Other plan', regions: ['FR'], billing_type: 'annual' });
    await createPlan({ name: 'Dollar plan', regions: ['FR'], currency: 'USD' });
    await createPlan({ name: 'Future plan', regions: ['FR'], from_date: '2099-01-01' });
  });

  it('is absent at first, with the plans offered to its country and currency', async () => {
    const res = await smA.get(`${zone}/info`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ zone_id: zoneId, country: 'FR', current: null, history: [] });
    const names = body.available_plans.map((p: { name: string }) => p.name);
    expect(names).toContain('Subscribed plan');
    expect(names).not.toContain('Dollar plan');
    expect(names).not.toContain('Future plan');
    expect(names).not.toContain('Default CH');
    expect(await hasSubscription(t.db, zoneId)).toBe(false);
  });

  it('is chosen by a customer manager from today, renewing a period later, logged in the zone', async () => {
    const res = await cmA.put(`${zone}/update`, { pricing_plan_id: planId, service_level: 'basic' });
    expect(res.statusCode, res.body).toBe(200);
    const today = parisToday();
    expect(res.json().current).toMatchObject({
      pricing_plan_id: planId,
      pricing_plan_name: 'Subscribed plan',
      service_level: 'basic',
      status: 'active',
      start_date: today,
      end_date: null,
      renewal_date: addBillingPeriods(today, 'monthly', 1),
      billing_type: 'monthly',
      currency: 'EUR',
    });
    expect(await hasSubscription(t.db, zoneId)).toBe(true);
    const log = (await cmA.get(zone.replace('/subscription', '/events'))).json().items;
    expect(log[0]).toMatchObject({ action_name: 'created', object_name: 'subscription', zone_id: zoneId });
  });

  it('is read but not chosen by a site manager, and out of reach of another customer', async () => {
    expect((await smA.get(`${zone}/info`)).statusCode).toBe(200);
    const choice = { pricing_plan_id: otherPlanId, service_level: 'premium' };
    expect((await smA.put(`${zone}/update`, choice)).statusCode).toBe(403);
    expect((await cmB.get(`${zone}/info`)).statusCode).toBe(403);
    expect((await cmB.put(`${zone}/update`, choice)).statusCode).toBe(403);
    const denied = await siteManagerWithout(t, w, 'sm.nosub@test.io', 'buildings.manage');
    expect((await denied.put(`${zone}/update`, choice)).statusCode).toBe(403);
    expect((await cmA.get(`${zone}/info`)).json().current.pricing_plan_id).toBe(planId);
  });

  it('refuses a plan not offered to the zone', async () => {
    const swiss = (await provider.get('/v1/pricing_plans/list?search=Default%20CH')).json().items[0].id;
    const res = await cmA.put(`${zone}/update`, { pricing_plan_id: swiss, service_level: 'basic' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('errors.pricing_plan_unavailable');
  });

  it('says "No pricing plans for the region" with whom to contact', async () => {
    const fr = await loginAs(t.app, 'cm.a@test.io', 'fr');
    const res = await fr.put(`${japanZone}/update`, { pricing_plan_id: planId, service_level: 'basic' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'errors.no_pricing_plans',
      message:
        'Aucune offre tarifaire pour la région (JP, JPY) : veuillez contacter provider@test.io pour en obtenir une',
    });
    const page = (await cmA.get(`${japanZone}/info`)).json();
    expect(page).toMatchObject({ available_plans: [], contact_email: 'provider@test.io', current: null });
  });

  it('gates premium on the server: basic is refused with the way to upgrade, premium passes', async () => {
    await expect(requirePremium(t.db, zoneId)).rejects.toMatchObject({
      status: 403,
      code: 'errors.premium_required',
    });
    const res = await provider.put(`${zone}/update`, { pricing_plan_id: planId, service_level: 'premium' });
    expect(res.statusCode, res.body).toBe(200);
    await expect(requirePremium(t.db, zoneId)).resolves.toBeUndefined();
    const body = res.json();
    expect(body.current).toMatchObject({ service_level: 'premium', status: 'active' });
    expect(body.history).toHaveLength(2);
    expect(body.history[1]).toMatchObject({
      service_level: 'basic',
      status: 'ended',
      end_date: parisToday(),
    });
    const [row] = await t.db.select().from(zones).where(eq(zones.id, zoneId));
    expect(row!.serviceLevel).toBe('premium');
    const [line] = (await cmA.get(zone.replace('/subscription', '/events'))).json().items;
    expect(line).toMatchObject({ action_name: 'updated', changed_fields: ['service_level'] });
  });

  it('changes nothing when the same plan and level are chosen again', async () => {
    const before = await t.db.select().from(events);
    const res = await cmA.put(`${zone}/update`, { pricing_plan_id: planId, service_level: 'premium' });
    expect(res.statusCode).toBe(200);
    expect(res.json().history).toHaveLength(2);
    expect(await t.db.select().from(events)).toHaveLength(before.length);
  });

  it("keeps its plan's past prices: a plan in use changes price only as a new version from a later day", async () => {
    const ranges = [{ volume_start: '0', volume_end: null, price_per_unit: '9' }];
    const inPlace = await provider.put(`/v1/pricing_plans/${planId}/update`, { ranges });
    expect(inPlace.statusCode).toBe(409);
    expect(inPlace.json().code).toBe('errors.pricing_plan_in_use');
    const tooEarly = await provider.put(`/v1/pricing_plans/${planId}/update`, {
      new_price: true,
      from_date: '2025-01-01',
      ranges,
    });
    expect(tooEarly.statusCode).toBe(400);
    expect(tooEarly.json().details).toEqual([
      { path: 'from_date', message: 'The new price must start after the start date of the current price' },
    ]);
    const noDate = await provider.put(`/v1/pricing_plans/${planId}/update`, { new_price: true, ranges });
    expect(noDate.statusCode).toBe(400);

    const from = localDate(new Date(t.clock.now().getTime() + 10 * DAY), 'Europe/Paris');
    const res = await provider.put(`/v1/pricing_plans/${planId}/update`, {
      new_price: true,
      from_date: from,
      ranges,
    });
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json();
    expect(plan).toMatchObject({
      version: 2,
      from_date: from,
      ranges,
      billing_type: 'monthly',
      currency: 'EUR',
    });
    expect(plan.versions).toHaveLength(2);
    expect(plan.versions[1]).toMatchObject({ version: 1, until_date: from, ranges: TIERS });
    expect(plan.versions[1].archived_at).not.toBeNull();

    const dayBefore = localDate(new Date(t.clock.now().getTime() + 9 * DAY), 'Europe/Paris');
    expect((await pricingOn(t.db, zoneId, dayBefore))!.version.ranges).toEqual(TIERS);
    expect((await pricingOn(t.db, zoneId, from))!.version.ranges).toEqual(ranges);
    expect(await pricingOn(t.db, zoneId, '2020-01-01')).toBeUndefined();
    const log = await t.db.select().from(events).where(eq(events.objectId, planId));
    expect(log.map((l) => l.actionName)).toContain('price_changed');
    // The subscription page offers the price in force today and the coming one, dated (issue 30:
    // the coming price showed alone, undated, as if it billed already).
    const offered = (await cmA.get(`${zone}/info`))
      .json()
      .available_plans.find((p: { id: string }) => p.id === planId);
    expect(offered.prices).toEqual({
      current: { from_date: expect.any(String), currency: 'EUR', volume_unit: 'm3', ranges: TIERS },
      upcoming: { from_date: from, currency: 'EUR', volume_unit: 'm3', ranges },
    });
  });

  it('is renewed each billing period, once, with a line in the activity log (spec §4)', async () => {
    const current = (await cmA.get(`${zone}/info`)).json().current;
    expect(await t.services.subscriptions.renewDue()).toBe(0);
    t.clock.advance(32 * DAY);
    // A month later the morning's sessions have expired: sign in again.
    [provider, cmA] = await Promise.all([loginAs(t.app, 'provider@test.io'), loginAs(t.app, 'cm.a@test.io')]);
    expect(await t.services.subscriptions.renewDue()).toBe(1);
    expect(await t.services.subscriptions.renewDue()).toBe(0);
    const renewed = (await cmA.get(`${zone}/info`)).json().current;
    expect(renewed.renewal_date).toBe(addBillingPeriods(current.start_date, 'monthly', 2));
    const [line] = (await cmA.get(zone.replace('/subscription', '/events'))).json().items;
    expect(line).toMatchObject({
      action_name: 'renewed',
      object_name: 'subscription',
      origin: 'system',
      user_id: null,
    });
  });

  it('counts on the subscriptions screen', async () => {
    const res = await provider.get('/v1/subscriptions/overview');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ active_subscription_count: 1, premium_subscription_count: 1 });
    const subscribed = res.json().plans.find((p: { id: string }) => p.id === planId);
    expect(subscribed).toMatchObject({ subscription_count: 1, premium_count: 1 });
  });

  it('keeps a plan it used: deleting archives it, which offers it to no one', async () => {
    const wrong = await provider.delete(`/v1/pricing_plans/${planId}/delete`, { confirm_name: 'nope' });
    expect(wrong.statusCode).toBe(400);
    const res = await provider.delete(`/v1/pricing_plans/${planId}/delete`, {
      confirm_name: 'Subscribed plan',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ archived: true });
    const listed = (await provider.get('/v1/pricing_plans/list'))
      .json()
      .items.map((p: { id: string }) => p.id);
    expect(listed).not.toContain(planId);
    const archived = (await provider.get('/v1/pricing_plans/list?archived=true')).json().items;
    expect(archived.map((p: { id: string }) => p.id)).toEqual([planId]);
    const page = (await cmA.get(`${zone}/info`)).json();
    expect(page.current.pricing_plan_id).toBe(planId);
    expect(page.available_plans.map((p: { id: string }) => p.id)).not.toContain(planId);
    const again = await cmA.put(`${zone}/update`, { pricing_plan_id: planId, service_level: 'basic' });
    expect(again.json().code).toBe('errors.pricing_plan_unavailable');
  });

  it('lets an unused plan be deleted for good', async () => {
    const res = await provider.delete(`/v1/pricing_plans/${otherPlanId}/delete`, {
      confirm_name: 'Other plan',
    });
    expect(res.json()).toEqual({ archived: false });
    expect((await provider.get(`/v1/pricing_plans/${otherPlanId}/info`)).statusCode).toBe(404);
  });
});
