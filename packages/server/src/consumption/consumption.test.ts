import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  compareExact,
  fromLiters,
  parseExact,
  priceVolume,
  subtractExact,
  addExact,
  formatAmount,
  ROLES,
  type PriceRange,
} from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumptionDaily,
  consumptionHourly,
  flowboxes,
  sites,
  zoneSubscriptions,
  zones,
} from '../db/schema.ts';
import {
  buildingBody,
  createUser,
  createWorldApp,
  loginAs,
  siteManagerWithout,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import type { VersionWithRanges } from '../billing/plans.repo.ts';
import { priceAt } from './costs.ts';
import { planWindow, startOfLocalDay } from './windows.ts';

describe('graph windows (spec §9) in Europe/Paris', () => {
  const paris = 'Europe/Paris';
  const hours = (b: { start: Date; end: Date }) => (b.end.getTime() - b.start.getTime()) / 3_600_000;

  it('starts local days at local midnight, also on the days the clocks change', () => {
    expect(startOfLocalDay('2026-03-29', paris).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfLocalDay('2026-03-30', paris).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfLocalDay('2026-10-26', paris).toISOString()).toBe('2026-10-25T23:00:00.000Z');
    // No local midnight in Santiago on 2026-09-06 (00:00 → 01:00): the day starts at 01:00.
    expect(startOfLocalDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('week: 7 local days ending today, the spring-forward day 23 hours long', () => {
    const plan = planWindow('week', new Date('2026-03-30T10:00:00Z'), paris, 'monday');
    expect(plan.buckets.map((b) => b.date)).toEqual([
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
    expect(plan.buckets.map(hours)).toEqual([24, 24, 24, 24, 24, 23, 24]);
    expect(plan.previous.map((b) => b.date)[0]).toBe('2026-03-17');
    expect(plan.previous.at(-1)!.end.getTime()).toBe(plan.buckets[0]!.start.getTime());
  });

  it('week: the fall-back day is one bucket of 25 hours', () => {
    const plan = planWindow('week', new Date('2026-10-26T10:00:00Z'), paris, 'monday');
    const sunday = plan.buckets.find((b) => b.date === '2026-10-25')!;
    expect(sunday.start.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(hours(sunday)).toBe(25);
  });

  it('day: 24 hour buckets ending with the current hour, whatever the local clock does', () => {
    const plan = planWindow('day', new Date('2026-10-25T05:30:00Z'), paris, 'monday');
    expect(plan.buckets).toHaveLength(24);
    expect(plan.buckets.every((b) => hours(b) === 1)).toBe(true);
    expect(plan.buckets[0]!.start.toISOString()).toBe('2026-10-24T06:00:00.000Z');
    expect(plan.buckets.at(-1)!.start.toISOString()).toBe('2026-10-25T05:00:00.000Z');
    expect(plan.previous[0]!.start.toISOString()).toBe('2026-10-23T06:00:00.000Z');
    expect(plan.elapsed).toEqual({ n: 1_800_000n, d: 3_600_000n });
  });

  it('month: 4 weeks starting on the building’s first day of week, the current week last', () => {
    const wednesday = new Date('2026-11-25T10:00:00Z');
    const monday = planWindow('month', wednesday, paris, 'monday');
    expect(monday.buckets.map((b) => b.fromDay)).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
    ]);
    expect(monday.previous[0]!.fromDay).toBe('2026-10-05');
    const sunday = planWindow('month', wednesday, paris, 'sunday');
    expect(sunday.buckets.map((b) => b.fromDay)).toEqual([
      '2026-11-01',
      '2026-11-08',
      '2026-11-15',
      '2026-11-22',
    ]);
    const saturday = planWindow('month', wednesday, paris, 'saturday');
    expect(saturday.buckets.at(-1)!.fromDay).toBe('2026-11-21');
  });

  it('year: 12 calendar months ending with the current one, and the 12 before', () => {
    const plan = planWindow('year', new Date('2026-11-25T10:00:00Z'), paris, 'monday');
    expect(plan.buckets[0]!.fromDay).toBe('2025-12-01');
    expect(plan.buckets.at(-1)!).toMatchObject({ fromDay: '2026-11-01', toDay: '2026-12-01' });
    expect(plan.previous[0]!.fromDay).toBe('2024-12-01');
  });
});

describe('cost maths', () => {
  it('prices a cumulative volume exactly as the shared tier maths does, in any unit', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (const volumeUnit of ['m3', 'liter', 'gallon', 'imperial_gallon'] as const) {
      const version = { ranges: OLD_TIERS, volumeUnit } as unknown as VersionWithRanges;
      for (let i = 0; i < 200; i++) {
        const ml = next() % 60_000_000;
        const expected = priceVolume(OLD_TIERS, fromLiters(parseExact(`${ml / 1000}`), volumeUnit));
        expect(compareExact(priceAt(version, ml), expected), `${ml} ml in ${volumeUnit}`).toBe(0);
      }
    }
  });
});

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
let cmB: ApiClient;

const site_ = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
const site = () => `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
/** Building P (Paris, m3, EUR, weeks from Monday): zone Z1 subscribed premium, Z2 without subscription. */
let buildingP: string;
let z1: { id: string; url: string };
let z2: { id: string; url: string };
/** Building L (Paris, litres, weeks from Sunday) with zone Z3; building G (gallons) with Z4. */
let buildingL: string;
let z3: { id: string; url: string };
let z4: { id: string; url: string };
let planId: string;

const OLD_TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
  { volume_start: '10', volume_end: '30', price_per_unit: '2' },
  { volume_start: '30', volume_end: null, price_per_unit: '3.25' },
];
const NEW_TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '10', price_per_unit: '2' },
  { volume_start: '10', volume_end: null, price_per_unit: '4' },
];
const FLOWBOX_1 = randomUUID();
const FLOWBOX_2 = randomUUID();

async function setNow(iso: string): Promise<void> {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
  // Tokens are checked against the injected clock: sign in again at the new time.
  await Promise.all([provider, cmA, smA, cmB].map((c) => c.login(emailOf.get(c)!)));
}
const emailOf = new Map<ApiClient, string>();

async function building(overrides: Record<string, unknown>) {
  const res = await cmA.post(`${site()}/buildings/create`, buildingBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return `${site()}/buildings/${res.json().id}`;
}
async function zone(buildingUrl: string, name: string) {
  const res = await cmA.post(`${buildingUrl}/zones/create`, zoneBody({ name }));
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, url: `${buildingUrl}/zones/${res.json().id}` };
}
async function daily(zoneId: string, day: string, volumeMl: number, flowboxId = FLOWBOX_1) {
  await t.db.insert(consumptionDaily).values({ zoneId, day, flowboxId, volumeMl, flowS: 60, readings: 1 });
}
async function hourly(zoneId: string, hour: string, volumeMl: number, flowboxId = FLOWBOX_1, temp = 20) {
  await t.db.insert(consumptionHourly).values({
    zoneId,
    hour: new Date(hour),
    flowboxId,
    volumeMl,
    flowS: 30,
    readings: 1,
    temperatureMin: temp - 1,
    temperatureMax: temp + 1,
    temperatureSum: temp * 2,
    temperatureCount: 2,
  });
}

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
  cmB = await loginAs(t.app, 'cm.b@test.io');
  emailOf.set(provider, 'provider@test.io').set(cmA, 'cm.a@test.io').set(smA, 'sm.a@test.io');
  emailOf.set(cmB, 'cm.b@test.io');
  await setNow('2026-11-25T10:30:00Z');
  buildingP = await building({ name: 'P building' });
  z1 = await zone(buildingP, 'Z1 kitchen');
  z2 = await zone(buildingP, 'Z2 showers');
  buildingL = await building({ name: 'L building', volume_unit: 'liter', first_day_of_week: 'sunday' });
  z3 = await zone(buildingL, 'Z3 laundry');
  const buildingG = await building({ name: 'G building', volume_unit: 'gallon' });
  z4 = await zone(buildingG, 'Z4 pool');

  const plan = await provider.post('/v1/pricing_plans/create', {
    name: 'Tiered',
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2025-01-01',
    ranges: OLD_TIERS,
  });
  expect(plan.statusCode, plan.body).toBe(201);
  planId = plan.json().id;
  await t.db.insert(zoneSubscriptions).values({
    zoneId: z1.id,
    planId,
    serviceLevel: 'premium',
    startDate: '2026-11-01',
    renewalDate: '2026-12-01',
  });
  // A new price from 20 November: consumption before it keeps the old one.
  const newPrice = await provider.put(`/v1/pricing_plans/${planId}/update`, {
    new_price: true,
    from_date: '2026-11-20',
    ranges: NEW_TIERS,
  });
  expect(newPrice.statusCode, newPrice.body).toBe(200);

  // Z1: 9.5 m3 on 1 Nov (old price, before the window), 1 m3 on 19 Nov, 0.5 m3 today from two flowboxes.
  await daily(z1.id, '2026-11-01', 9_500_000);
  await daily(z1.id, '2026-11-19', 1_000_000);
  await daily(z1.id, '2026-11-25', 250_000, FLOWBOX_1);
  await daily(z1.id, '2026-11-25', 250_000, FLOWBOX_2);
  await hourly(z1.id, '2026-11-25T08:00:00Z', 250_000, FLOWBOX_1, 20);
  await hourly(z1.id, '2026-11-25T09:00:00Z', 250_000, FLOWBOX_2, 30);
  // Z2: 3 m3 a week ago (a Wednesday), 1.5 m3 today. By 11:30 Paris time that Wednesday (10:30Z, the
  // time of day the tests run at), 2 m3 and half of the 0.6 m3 of 10:00Z had run; 0.4 m3 came later.
  await daily(z2.id, '2026-11-18', 3_000_000);
  await hourly(z2.id, '2026-11-18T08:00:00Z', 2_000_000);
  await hourly(z2.id, '2026-11-18T10:00:00Z', 600_000);
  await hourly(z2.id, '2026-11-18T20:00:00Z', 400_000);
  await daily(z2.id, '2026-11-25', 1_500_000);
  await daily(z3.id, '2026-11-25', 1_234_567);
  await daily(z4.id, '2026-11-25', 3_785_412);
});
afterAll(() => t.close());

const get = (client: ApiClient, url: string) => client.get(url).then((res) => ({ res, body: res.json() }));

describe('consumption series', () => {
  it('a zone’s week: 7 local days in its unit, flowboxes summed, with the previous week', async () => {
    const { res, body } = await get(cmA, `${z2.url}/consumption?window=week`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body).toMatchObject({
      scope: 'zone',
      scope_id: z2.id,
      window: 'week',
      timezone: 'Europe/Paris',
      volume_unit: 'm3',
      currency: 'EUR',
      first_day_of_week: 'monday',
      to: expect.stringMatching(/^2026-11-25T10:3/),
      from: '2026-11-18T23:00:00.000Z',
    });
    expect(body.buckets.map((b: { volume: string }) => b.volume)).toEqual([
      '0.000',
      '0.000',
      '0.000',
      '0.000',
      '0.000',
      '0.000',
      '1.500',
    ]);
    expect(body.buckets.at(-1)).toMatchObject({ date: '2026-11-25', cost: null });
    expect(body.total).toEqual({ volume: '1.500', cost: null, other_currencies: [] });
    expect(body.previous.total.volume).toBe('3.000');
    // Today is 11.5 h old in Paris: the previous week counts its last day pro rata, 3 × 11.5/24.
    expect(body.previous.total_to_date).toBe('1.438');
    expect(body.comparison).toEqual({ change_pct: '4.3', reason: null });

    const z1Week = await get(cmA, `${z1.url}/consumption?window=week`);
    expect(z1Week.body.buckets.at(-1).volume).toBe('0.500');
  });

  it('spec §5: no comparison when one of the two periods is 0, and says which', async () => {
    const { body } = await get(cmA, `${z1.url}/consumption?window=week`);
    expect(body.comparison).toEqual({ change_pct: null, reason: 'previous_zero' });
    const z3Day = await get(cmA, `${z3.url}/consumption?window=day`);
    expect(z3Day.body.comparison).toEqual({ change_pct: null, reason: 'both_zero' });
    const none = await get(cmA, `${z2.url}/consumption?window=week&compare=none`);
    expect(none.body.previous).toBeNull();
    expect(none.body.comparison).toBeNull();
  });

  it('cost: each billing period priced through the tiers, a new price only for the days after it', async () => {
    const { body } = await get(cmA, `${z1.url}/consumption?window=week`);
    // Cumulative since 1 Nov: 9.5 → 10.5 m3 on the 19th at the old price, 10.5 → 11 today at the new one.
    const oldPrice = (m3: string) => priceVolume(OLD_TIERS, parseExact(m3));
    const newPrice = (m3: string) => priceVolume(NEW_TIERS, parseExact(m3));
    const on19 = subtractExact(oldPrice('10.5'), oldPrice('9.5'));
    const today = subtractExact(newPrice('11'), newPrice('10.5'));
    expect(body.buckets.find((b: { date: string }) => b.date === '2026-11-19').cost).toBe(
      formatAmount(on19, 'EUR'),
    );
    expect(body.buckets.at(-1).cost).toBe('2.00');
    expect(body.total.cost).toBe(formatAmount(addExact(on19, today), 'EUR'));
    expect(body.total.cost).toBe('3.75');
    expect(body.buckets[1].cost).toBe('0.00');
  });

  it('cost of the month equals the price maths on the billing period’s rolled-up volume', async () => {
    // The month window (4 weeks from Monday 2 Nov) misses 1 Nov, whose 9.5 m3 still fill the first tier.
    const { body } = await get(cmA, `${z1.url}/consumption?window=year`);
    const november = body.buckets.at(-1);
    expect(november.volume).toBe('11.000');
    // The whole period: 10.5 m3 at the old price, then 10.5 → 11 at the new one.
    expect(november.cost).toBe(
      formatAmount(
        addExact(
          priceVolume(OLD_TIERS, parseExact('10.5')),
          subtractExact(priceVolume(NEW_TIERS, parseExact('11')), priceVolume(NEW_TIERS, parseExact('10.5'))),
        ),
        'EUR',
      ),
    );
    expect(november.cost).toBe('18.00');
  });

  it('day: hours carry their day’s cost pro rata of their volume', async () => {
    const { body } = await get(cmA, `${z1.url}/consumption?window=day`);
    expect(body.buckets).toHaveLength(24);
    const eight = body.buckets.find((b: { start: string }) => b.start === '2026-11-25T08:00:00.000Z');
    expect(eight).toMatchObject({ volume: '0.250', cost: '1.00', date: '2026-11-25' });
    expect(body.total).toMatchObject({ volume: '0.500', cost: '2.00' });
  });

  it('a building in litres and one in gallons answer in their own unit', async () => {
    const litres = await get(cmA, `${z3.url}/consumption?window=week`);
    expect(litres.body.volume_unit).toBe('liter');
    expect(litres.body.total.volume).toBe('1234.567');
    const gallons = await get(cmA, `${z4.url}/consumption?window=week`);
    expect(gallons.body.total.volume).toBe('1000.000');
  });

  it('a site converts every zone to the unit most of its zones use', async () => {
    const { body } = await get(cmA, `${site()}/consumption?window=week`);
    expect(body.scope).toBe('site');
    expect(body.volume_unit).toBe('m3');
    // 0.5 + 1.5 + 1.234567 + 3.785412 m3 today.
    expect(body.buckets.at(-1).volume).toBe('7.020');
    expect(body.total.cost).toBe('3.75');
    const customer = await get(cmA, `/v1/customers/${w.customers.a.id}/consumption?window=week`);
    expect(customer.body.total.volume).toBe('8.020');
  });

  it('a building in litres with weeks from Sunday gives month buckets from Sunday', async () => {
    const { body } = await get(cmA, `${buildingL}/consumption?window=month`);
    expect(body.first_day_of_week).toBe('sunday');
    expect(body.buckets.map((b: { date: string }) => b.date)).toEqual([
      '2026-11-01',
      '2026-11-08',
      '2026-11-15',
      '2026-11-22',
    ]);
    expect(body.total.volume).toBe('1234.567');
  });

  it('a site manager sees only its sites at the customer level', async () => {
    const customerA = `/v1/customers/${w.customers.a.id}/consumption?window=week`;
    expect((await get(smA, customerA)).body.total.volume).toBe('8.020');
    const other = await cmA.post(
      `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}/buildings/create`,
      buildingBody({ name: 'A2 building' }),
    );
    const z5 = await zone(
      `/v1/customers/${w.customers.a.id}/sites/${w.sites.a2.id}/buildings/${other.json().id}`,
      'Z5',
    );
    await daily(z5.id, '2026-11-25', 1_000_000);
    expect((await get(cmA, customerA)).body.total.volume).toBe('9.020');
    expect((await get(smA, customerA)).body.total.volume).toBe('8.020');
    await t.db.delete(consumptionDaily).where(eqZone(z5.id));
  });
});

describe('zones compared', () => {
  it('lists a building’s zones with their totals, largest first (ties by name)', async () => {
    const { res, body } = await get(cmA, `${buildingP}/consumption/zones?window=week`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.zones.map((z: { zone_name: string }) => z.zone_name)).toEqual(['Z1 kitchen', 'Z2 showers']);
    expect(body.zones[1]).toMatchObject({
      volume: '1.500',
      previous_volume: '1.438',
      cost: null,
      comparison: { change_pct: '4.3', reason: null },
    });
    expect(body.zones[0]).toMatchObject({ volume: '1.500', cost: '3.75', currency: 'EUR' });
    const site = await get(cmA, `${site_()}/consumption/zones?window=week`);
    expect(site.body.zones.map((z: { zone_name: string }) => z.zone_name)[0]).toBe('Z4 pool');
  });
});

describe('premium device details (spec §6)', () => {
  it('gives a premium zone’s figures per flowbox and its climate', async () => {
    const { res, body } = await get(cmA, `${z1.url}/consumption/details?window=day`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.flowboxes).toHaveLength(2);
    const eight = body.climate.find((c: { start: string }) => c.start === '2026-11-25T08:00:00.000Z');
    expect(eight.temperature).toEqual({ min: 19, avg: 20, max: 21 });
    expect(body.climate[0].temperature).toBeNull();
    const week = await get(cmA, `${z1.url}/consumption/details?window=week`);
    expect(week.body.climate.at(-1).temperature).toEqual({ min: 19, avg: 25, max: 31 });
  });

  it('refuses another customer, and a site manager of another site, even for a premium zone', async () => {
    const other = await get(cmB, `${z1.url}/consumption/details?window=day`);
    expect(other.res.statusCode).toBe(403);
    expect(other.body.code).toBe('errors.forbidden');
    expect((await get(smA, `${z1.url}/consumption/details?window=day`)).res.statusCode).toBe(200);
  });

  it('refuses a basic zone on the server, with the way to upgrade, in EN and FR', async () => {
    const { res, body } = await get(cmA, `${z2.url}/consumption/details?window=day`);
    expect(res.statusCode).toBe(403);
    expect(body.message).toBe(
      'This is part of the premium service: upgrade the zone to premium on its subscription page',
    );
    const fr = await cmA.request('GET', `${z2.url}/consumption/details`, undefined, {
      'accept-language': 'fr',
    });
    expect(fr.json().message).toMatch(/^Ceci fait partie du service premium/);
  });
});

describe('the price tiers that bill a zone (issue 15)', () => {
  it('are its plan version in force today, with the billing period’s volume so far and the tier it reached', async () => {
    await setNow('2026-11-25T10:30:00Z');
    const { res, body } = await get(smA, `${z1.url}/consumption/price_tiers`);
    expect(res.statusCode, res.body).toBe(200);
    // 9.5 + 1 + 0.5 m³ since the period began on 1 November; the new price applies since the 20th.
    expect(body).toEqual({
      plan_id: planId,
      period_from: '2026-11-01',
      period_to: '2026-12-01',
      period_volume: '11.000',
      volume_unit: 'm3',
      currency: 'EUR',
      ranges: NEW_TIERS,
      current_range: 1,
      upcoming: null,
    });
  });

  it('name the coming price with its date before it applies (issue 30)', async () => {
    await setNow('2026-11-15T10:30:00Z');
    const { res, body } = await get(smA, `${z1.url}/consumption/price_tiers`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.ranges).not.toEqual(NEW_TIERS);
    expect(body.upcoming).toEqual({
      from_date: '2026-11-20',
      currency: 'EUR',
      volume_unit: 'm3',
      ranges: NEW_TIERS,
    });
    await setNow('2026-11-25T10:30:00Z');
  });

  it('are none for a zone without a subscription: nothing bills it', async () => {
    const { res, body } = await get(cmA, `${z2.url}/consumption/price_tiers`);
    expect(res.statusCode).toBe(200);
    expect(body).toBeNull();
  });

  it('are not shown to another customer’s manager', async () => {
    const res = await cmB.get(`${z1.url}/consumption/price_tiers`);
    expect([403, 404]).toContain(res.statusCode);
  });
});

describe('CSV export', () => {
  it('one line per zone and day, with localized column names and as an attachment', async () => {
    const res = await cmA.get(`${buildingP}/consumption/export.csv?from=2026-11-19&to=2026-11-25`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="consumption-building-2026-11-19_2026-11-25.csv"',
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Start,End,Customer,Site,Building,Zone,Volume,Unit,Cost,Currency');
    expect(lines).toHaveLength(1 + 2 * 7);
    expect(lines).toContain(
      '2026-11-19,2026-11-19,Customer A,A site 1,P building,Z1 kitchen,1.000,m3,1.75,EUR',
    );
    expect(lines).toContain('2026-11-25,2026-11-25,Customer A,A site 1,P building,Z2 showers,1.500,m3,,');
    const fr = await cmA.request('GET', `${z1.url}/consumption/export.csv?window=day`, undefined, {
      'accept-language': 'fr',
    });
    const frLines = fr.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(frLines[0]).toBe('Début,Fin,Client,Site,Bâtiment,Zone,Volume,Unité,Coût,Devise');
    expect(frLines).toHaveLength(25);
    expect(frLines).toContain(
      '2026-11-25 09:00+01:00,2026-11-25 10:00+01:00,Customer A,A site 1,P building,Z1 kitchen,0.250,m3,1.00,EUR',
    );
  });

  it('neutralises a name a spreadsheet would run as a formula, numbers left as numbers', async () => {
    const formula = '=HYPERLINK("http://evil.example","x")';
    await t.db.update(zones).set({ name: formula }).where(eq(zones.id, z1.id));
    try {
      const res = await cmA.get(`${z1.url}/consumption/export.csv?window=day`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      expect(res.body).not.toMatch(/(^|,)"?[=+@]/m);
    } finally {
      await t.db.update(zones).set({ name: 'Z1 kitchen' }).where(eq(zones.id, z1.id));
    }
  });

  it('quotes a name holding a semicolon and neutralises the formula a French spreadsheet would cut from it (issue 30)', async () => {
    await t.db.update(sites).set({ name: "Gre;=cmd|' /C calc'!A0;" }).where(eq(sites.id, w.sites.a1.id));
    try {
      const res = await cmA.get(`${z1.url}/consumption/export.csv?window=day`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(`,"Gre;'=cmd|' /C calc'!A0;",`);
      // Cut at commas, semicolons, tabs or line breaks, no cell starts a formula.
      const cells = res.body.split(/[,;\t\r\n]/).map((cell) => cell.replace(/^[ "]*/, ''));
      expect(cells.filter((cell) => /^([=+@]|-(?!\d))/.test(cell))).toEqual([]);
    } finally {
      await t.db.update(sites).set({ name: 'A site 1' }).where(eq(sites.id, w.sites.a1.id));
    }
  });

  it('needs the consumption.export permission', async () => {
    const denied = await siteManagerWithout(t, w, 'sm.noexport@test.io', 'consumption.export');
    expect((await denied.get(`${z1.url}/consumption/export.csv?window=week`)).statusCode).toBe(403);
    expect((await denied.get(`${z1.url}/consumption?window=week`)).statusCode).toBe(200);
  });
});

describe('day window across the autumn clock change', () => {
  it('keeps both 02:00 hours of 25 October apart', async () => {
    await setNow('2026-10-25T03:30:00Z');
    await hourly(z2.id, '2026-10-25T00:00:00Z', 100_000);
    await hourly(z2.id, '2026-10-25T01:00:00Z', 200_000);
    const { body } = await get(cmA, `${z2.url}/consumption?window=day`);
    expect(body.buckets).toHaveLength(24);
    const night = body.buckets.filter((b: { volume: string }) => b.volume !== '0.000');
    expect(night).toEqual([
      expect.objectContaining({ start: '2026-10-25T00:00:00.000Z', date: '2026-10-25', volume: '0.100' }),
      expect.objectContaining({ start: '2026-10-25T01:00:00.000Z', date: '2026-10-25', volume: '0.200' }),
    ]);
    await setNow('2026-11-25T10:30:00Z');
  });
});

describe("today's dashboard", () => {
  it('sums what the caller sees: today so far against the same weekday of the 4 weeks before, by the same time', async () => {
    // "By the same time" moves with the clock, which has run since the file's start: set it again.
    await setNow('2026-11-25T10:30:00Z');
    const paired = { pairingState: 'ready' as const, pairedAt: new Date() };
    await t.db.insert(flowboxes).values([
      { serial: 'DASH-1', zoneId: z1.id, ...paired, connected: true },
      { serial: 'DASH-2', zoneId: z2.id, ...paired, connected: false },
      { serial: 'DASH-3', zoneId: z3.id, pairingState: 'init', connected: false },
    ]);
    const { res, body } = await get(cmA, '/v1/dashboard/today');
    expect(res.statusCode, res.body).toBe(200);
    expect(body).toMatchObject({
      volume_unit: 'm3',
      currency: 'EUR',
      volume_today: '7.020',
      // 3 m3 on Wednesday 18 November, nothing on the three Wednesdays before: 3 / 4.
      same_weekday_average: '0.750',
      // By the same local time: 2.3 m3 that Wednesday, / 4.
      usual_to_date: expect.stringMatching(/^0\.57[56]$/),
      cost_today: '2.00',
      open_alerts: 0,
      // Every flowbox placed in the zones, as the fleet list counts them: the one still at pairing
      // step 1, never connected, is offline too.
      devices: { online: 1, offline: 2 },
    });
    // Today so far against the usual by this time, not against whole days.
    // 1120.9 % at 10:30:00 sharp; the clock runs on while the test does, and each second moves the
    // usual's share of the 10:00 hour (0.6 m3 / 3600 / 4), hence the tolerance.
    expect(Math.abs(Number(body.comparison.change_pct) - 1120.9)).toBeLessThan(2);
    expect(body.top_zones.map((z: { zone_name: string }) => z.zone_name)).toEqual([
      'Z4 pool',
      'Z2 showers',
      'Z3 laundry',
      'Z1 kitchen',
    ]);
  });

  it('counts the open alerts the caller sees, as the header does', async () => {
    await t.db.transaction((tx) =>
      t.services.alerts.raise(tx, {
        category: 'flowbox_dysfunction',
        zoneId: z1.id,
        cause: 'dashboard-test',
        details: {},
      }),
    );
    const { body } = await get(cmA, '/v1/dashboard/today');
    const header = (await get(cmA, '/v1/alerts/count')).body;
    expect(body.open_alerts).toBeGreaterThanOrEqual(1);
    expect(body.open_alerts).toBe(header.open);
    expect((await get(cmB, '/v1/dashboard/today')).body.open_alerts).toBe(0);
  });

  it('shows another customer nothing of A', async () => {
    const { body } = await get(cmB, '/v1/dashboard/today');
    expect(body).toMatchObject({
      volume_today: '0.000',
      top_zones: [],
      cost_today: null,
      devices: { online: 0, offline: 0 },
    });
    expect(body.comparison).toEqual({ change_pct: null, reason: 'both_zero' });
    expect((await get(provider, '/v1/dashboard/today')).body.volume_today).toBe('7.020');
  });

  it('refuses a plumber, who reads no consumption or cost, rather than answering zeros (issue 30)', async () => {
    // Its site has flowboxes (the first test's): zeros would be untrue, and the figures are consumption.
    await createUser(t.db, {
      email: 'plumber.dash@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
    });
    const plumber = await loginAs(t.app, 'plumber.dash@test.io');
    const res = await plumber.get('/v1/dashboard/today');
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('errors.forbidden');
  });
});

const eqZone = (zoneId: string) => eq(consumptionDaily.zoneId, zoneId);
