import {
  addExact,
  divideExact,
  exactInteger,
  formatAmount,
  formatExact,
  multiplyExact,
  priceVolume,
  subtractExact,
  EXACT_ZERO,
  type Exact,
  type PriceRange,
} from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionDaily, consumptionHourly, zoneSubscriptions } from '../db/schema.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { planWindow } from './windows.ts';

/*
 * Time zones whose offset is not whole hours (docs/consumption.md "Time zones"): Asia/Kolkata
 * +05:30, Asia/Kathmandu +05:45, Australia/Adelaide +10:30/+09:30 with its clock changes. Readings
 * are made up every 15 minutes, rolled up here by the placement rule of docs/telemetry.md (UTC
 * hour and local day of `at − 1 ms`), and every figure the API gives is recomputed here from the
 * readings with the shared price maths, independently of the service's code.
 */

const HOUR = 3_600_000;
const QUARTER = HOUR / 4;
const TIERS: PriceRange[] = [
  { volume_start: '0', volume_end: '1.5', price_per_unit: '1.25' },
  { volume_start: '1.5', volume_end: null, price_per_unit: '3.1' },
];
const SUBSCRIBED_FROM = '2026-01-15';
const ZONES = ['Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Adelaide'] as const;
type Timezone = (typeof ZONES)[number];
/** Adelaide falls back at 03:00 on 5 April 2026 (16:30Z on the 4th), springs forward on 4 October. */
const AUTUMN_NOW = '2026-04-04T20:10:00Z';
const SPRING_NOW = '2026-10-03T20:10:00Z';
/** Readings are stored up to the later instant; both are read from the same rollups. */
const STORED_UNTIL = Date.parse(SPRING_NOW) + HOUR;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dayOf(at: number, timezone: string): string {
  let format = dateFormats.get(timezone);
  if (!format)
    dateFormats.set(
      timezone,
      (format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, dateStyle: 'short' })),
    );
  return format.format(new Date(at));
}
/** The first instant of a local day, found by walking quarter hours (every offset is a multiple). */
function startOf(day: string, timezone: string): number {
  let t = Date.parse(`${day}T00:00:00Z`) - 15 * HOUR;
  while (dayOf(t, timezone) < day) t += QUARTER;
  return t;
}
const nextDay = (day: string, n = 1) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 24 * HOUR).toISOString().slice(0, 10);
const nextMonth = (day: string, n = 1) => {
  const d = new Date(`${day}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString().slice(0, 10);
};
const ml = (value: number | bigint) => exactInteger(value);
const m3 = (millilitres: Exact) => divideExact(millilitres, exactInteger(1_000_000));
const volume = (millilitres: Exact) => formatExact(m3(millilitres), 3);

/** Made-up consumption of the 15 minutes ending at `end` (ms), in millilitres. */
function readingMl(zone: number, end: number): number {
  const x = Math.sin(end / 1_000_000 + zone * 7) * 10_000;
  const value = Math.floor((x - Math.floor(x)) * 40_000);
  // Kolkata: nothing from 00:00 local on 5 April, so the hour 23:30–00:30 is all the 4th's.
  if (zone === 0 && end - 1 >= Date.parse('2026-04-04T18:30:00Z') && end - 1 < Date.parse(AUTUMN_NOW) + HOUR)
    return 0;
  return value;
}

type Rollups = { hours: Map<number, number>; days: Map<string, number> };

const rolledUp = new Map<number, Rollups>();

/** The zone's readings from 1 December 2025 on, rolled up like the ingest does (once per zone). */
function rollUp(zone: number, timezone: string): Rollups {
  const known = rolledUp.get(zone);
  if (known) return known;
  const hours = new Map<number, number>();
  const days = new Map<string, number>();
  const ofHour = new Map<number, [string, string]>();
  for (let end = Date.parse('2025-12-01T00:15:00Z'); end <= STORED_UNTIL; end += QUARTER) {
    const value = readingMl(zone, end);
    const placed = end - 1;
    const hour = Math.floor(placed / HOUR) * HOUR;
    hours.set(hour, (hours.get(hour) ?? 0) + value);
    // Time-zone lookups once per hour, and per reading only when the hour holds local midnight.
    let ends = ofHour.get(hour);
    if (!ends) ofHour.set(hour, (ends = [dayOf(hour, timezone), dayOf(hour + HOUR - 1, timezone)]));
    const day = ends[0] === ends[1] ? ends[0] : dayOf(placed, timezone);
    days.set(day, (days.get(day) ?? 0) + value);
  }
  rolledUp.set(zone, { hours, days });
  return { hours, days };
}

/** Each subscribed day's cost, by definition: its slice of the tiers in its billing period. */
function dayCosts(days: Map<string, number>): Map<string, Exact> {
  const costs = new Map<string, Exact>();
  const price = (millilitres: number) => priceVolume(TIERS, m3(ml(millilitres)));
  let periodStart = SUBSCRIBED_FROM;
  let cumulative = 0;
  for (const day of [...days.keys()].sort()) {
    if (day < SUBSCRIBED_FROM) continue;
    // Monthly periods from the 15th (the subscription's day).
    while (nextMonth(periodStart).slice(0, 8) + '15' <= day) {
      periodStart = nextMonth(periodStart).slice(0, 8) + '15';
      cumulative = 0;
    }
    const value = days.get(day)!;
    costs.set(day, subtractExact(price(cumulative + value), price(cumulative)));
    cumulative += value;
  }
  return costs;
}

type Expected = { start: number; end: number; volume: Exact; cost: Exact };

/** The day window's buckets: UTC hours, each priced at the average price of its local day. */
function expectedHours(r: Rollups, costs: Map<string, Exact>, timezone: string, from: number): Expected[] {
  return Array.from({ length: 24 }, (_, i) => {
    const start = from + i * HOUR;
    const value = r.hours.get(start) ?? 0;
    // The day holding most of the hour (the later on a tie), else the other one.
    const candidates = [
      dayOf(start + HOUR / 2, timezone),
      dayOf(start, timezone),
      dayOf(start + HOUR - 1, timezone),
    ];
    const day = candidates.find((d) => (r.days.get(d) ?? 0) > 0);
    const cost =
      day && costs.has(day) && value > 0
        ? multiplyExact(costs.get(day)!, divideExact(ml(value), ml(r.days.get(day)!)))
        : EXACT_ZERO;
    return { start, end: start + HOUR, volume: ml(value), cost };
  });
}

/** Day-based buckets from local dates: their volume and cost are their days'. */
function expectedDays(
  r: Rollups,
  costs: Map<string, Exact>,
  timezone: string,
  starts: string[],
  next: (d: string) => string,
) {
  return starts.map((from) => {
    let value = EXACT_ZERO;
    let cost = EXACT_ZERO;
    for (let day = from; day < next(from); day = nextDay(day)) {
      value = addExact(value, ml(r.days.get(day) ?? 0));
      cost = addExact(cost, costs.get(day) ?? EXACT_ZERO);
    }
    return {
      start: startOf(from, timezone),
      end: startOf(next(from), timezone),
      volume: value,
      cost,
      date: from,
    };
  });
}

const sum = (values: Exact[]) => values.reduce(addExact, EXACT_ZERO);

/** spec §5 comparison over the same elapsed time, as docs/consumption.md "Comparing" defines it. */
function comparison(current: Expected[], previous: Expected[], now: number) {
  const last = current.at(-1)!;
  const share = divideExact(ml(now - last.start), ml(last.end - last.start));
  const toDate = addExact(
    sum(previous.slice(0, -1).map((b) => b.volume)),
    multiplyExact(previous.at(-1)!.volume, share),
  );
  const total = sum(current.map((b) => b.volume));
  if (toDate.n === 0n) return { toDate: volume(toDate), change: null };
  const change = multiplyExact(divideExact(subtractExact(total, toDate), toDate), exactInteger(100));
  return { toDate: volume(toDate), change: formatExact(change, 1) };
}

let t: TestApp;
let w: World;
let cmA: ApiClient;
let provider: ApiClient;
const zoneUrl = new Map<Timezone, string>();

async function setNow(iso: string): Promise<void> {
  t.clock.advance(Date.parse(iso) - t.clock.now().getTime());
  await cmA.login('cm.a@test.io');
}

beforeAll(async () => {
  ({ t, w, cmA, provider } = await createWorldApp());
  await setNow(SPRING_NOW);
  const plan = await provider.post('/v1/pricing_plans/create', {
    name: 'Tiered',
    regions: ['FR'],
    billing_type: 'monthly',
    acquisition_type: 'pay_as_you_go_fee',
    currency: 'EUR',
    volume_unit: 'm3',
    from_date: '2025-01-01',
    ranges: TIERS,
  });
  expect(plan.statusCode, plan.body).toBe(201);
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  for (const [i, timezone] of ZONES.entries()) {
    const building = await cmA.post(`${site}/buildings/create`, buildingBody({ name: timezone, timezone }));
    expect(building.statusCode, building.body).toBe(201);
    const buildingUrl = `${site}/buildings/${building.json().id}`;
    const zone = await cmA.post(`${buildingUrl}/zones/create`, zoneBody({ name: `Zone ${timezone}` }));
    const zoneId = zone.json().id as string;
    zoneUrl.set(timezone, `${buildingUrl}/zones/${zoneId}`);
    await t.db.insert(zoneSubscriptions).values({
      zoneId,
      planId: plan.json().id,
      serviceLevel: 'basic',
      startDate: SUBSCRIBED_FROM,
      renewalDate: '2026-11-15',
    });
    const r = rollUp(i, timezone);
    const flowboxId = '00000000-0000-4000-8000-00000000000' + i;
    const days = [...r.days].map(([day, volumeMl]) => ({
      zoneId,
      day,
      flowboxId,
      volumeMl,
      flowS: 0,
      readings: 1,
    }));
    for (let k = 0; k < days.length; k += 500)
      await t.db.insert(consumptionDaily).values(days.slice(k, k + 500));
    // Hourly rows around the two instants the day windows are read at.
    const near = (hour: number) =>
      [AUTUMN_NOW, SPRING_NOW].some((now) => hour > Date.parse(now) - 50 * HOUR && hour <= Date.parse(now));
    const hours = [...r.hours]
      .filter(([hour]) => near(hour))
      .map(([hour, volumeMl]) => ({
        zoneId,
        hour: new Date(hour),
        flowboxId,
        volumeMl,
        flowS: 0,
        readings: 1,
      }));
    await t.db.insert(consumptionHourly).values(hours);
  }
});
afterAll(() => t.close());

describe('windows in time zones with a :30 or :45 offset', () => {
  it('day: UTC hours labelled by their local start, 10:30–11:30 in Kolkata, 10:45 in Kathmandu', () => {
    const now = new Date('2026-04-04T05:40:00Z');
    const kolkata = planWindow('day', now, 'Asia/Kolkata', 'monday');
    expect(kolkata.buckets.at(-1)!.start.toISOString()).toBe('2026-04-04T05:00:00.000Z');
    expect(new Date(kolkata.buckets.at(-1)!.start.getTime() + 5.5 * HOUR).toISOString()).toMatch(/T10:30/);
    expect(kolkata.buckets.every((b) => b.end.getTime() - b.start.getTime() === HOUR)).toBe(true);
  });

  it('week: Adelaide’s local days start at local midnight, 25 hours on 5 April and 23 on 4 October', () => {
    const autumn = planWindow('week', new Date(AUTUMN_NOW), 'Australia/Adelaide', 'monday');
    expect(autumn.buckets.at(-1)!.date).toBe('2026-04-05');
    expect(autumn.buckets.at(-1)!.start.toISOString()).toBe('2026-04-04T13:30:00.000Z');
    expect(autumn.buckets.at(-1)!.end.getTime() - autumn.buckets.at(-1)!.start.getTime()).toBe(25 * HOUR);
    const spring = planWindow('week', new Date(SPRING_NOW), 'Australia/Adelaide', 'monday');
    expect(spring.buckets.at(-1)!.start.toISOString()).toBe('2026-10-03T14:30:00.000Z');
    expect(spring.buckets.at(-1)!.end.getTime() - spring.buckets.at(-1)!.start.getTime()).toBe(23 * HOUR);
    const kathmandu = planWindow('week', new Date(SPRING_NOW), 'Asia/Kathmandu', 'monday');
    expect(kathmandu.buckets.at(-1)!.start.toISOString()).toBe('2026-10-03T18:15:00.000Z');
  });
});

describe.each([
  ['the autumn change', AUTUMN_NOW],
  ['the spring change', SPRING_NOW],
])('graphs at %s (%s)', (_, nowIso) => {
  const now = Date.parse(nowIso);
  beforeAll(() => setNow(nowIso));

  it.each(ZONES.map((tz, i) => [tz, i] as const))(
    '%s: day window equals the readings, hour by hour',
    async (timezone, i) => {
      const r = rollUp(i, timezone);
      const costs = dayCosts(r.days);
      const hour = Math.floor(now / HOUR) * HOUR;
      const current = expectedHours(r, costs, timezone, hour - 23 * HOUR);
      const previous = expectedHours(r, costs, timezone, hour - 47 * HOUR);
      const res = await cmA.get(`${zoneUrl.get(timezone)}/consumption?window=day`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(
        body.buckets.map((b: { start: string; volume: string; cost: string; date: string }) => [
          b.start,
          b.date,
          b.volume,
          b.cost,
        ]),
      ).toEqual(
        current.map((b) => [
          new Date(b.start).toISOString(),
          dayOf(b.start, timezone),
          volume(b.volume),
          formatAmount(b.cost, 'EUR'),
        ]),
      );
      expect(body.total).toEqual({
        volume: volume(sum(current.map((b) => b.volume))),
        cost: formatAmount(sum(current.map((b) => b.cost)), 'EUR'),
        other_currencies: [],
      });
      expect(body.previous.total.cost).toBe(formatAmount(sum(previous.map((b) => b.cost)), 'EUR'));
      const compared = comparison(current, previous, now);
      expect(body.previous.total_to_date).toBe(compared.toDate);
      expect(body.comparison).toEqual({ change_pct: compared.change, reason: null });
    },
  );

  it.each(ZONES.map((tz, i) => [tz, i] as const))(
    '%s: week and year windows equal the readings, day by day',
    async (timezone, i) => {
      const r = rollUp(i, timezone);
      const costs = dayCosts(r.days);
      const today = dayOf(now, timezone);
      const check = async (window: string, current: Expected[], previous: Expected[]) => {
        const body = (await cmA.get(`${zoneUrl.get(timezone)}/consumption?window=${window}`)).json();
        expect(
          body.buckets.map((b: { start: string; end: string; volume: string; cost: string }) => [
            b.start,
            b.end,
            b.volume,
            b.cost,
          ]),
          window,
        ).toEqual(
          current.map((b) => [
            new Date(b.start).toISOString(),
            new Date(b.end).toISOString(),
            volume(b.volume),
            formatAmount(b.cost, 'EUR'),
          ]),
        );
        expect(body.previous.total.volume, window).toBe(volume(sum(previous.map((b) => b.volume))));
        expect(body.comparison.change_pct, window).toBe(comparison(current, previous, now).change);
      };
      const days = (from: string, count: number) => Array.from({ length: count }, (_, k) => nextDay(from, k));
      await check(
        'week',
        expectedDays(r, costs, timezone, days(nextDay(today, -6), 7), nextDay),
        expectedDays(r, costs, timezone, days(nextDay(today, -13), 7), nextDay),
      );
      const month = `${today.slice(0, 7)}-01`;
      const months = (from: string) => Array.from({ length: 12 }, (_, k) => nextMonth(from, k));
      await check(
        'year',
        expectedDays(r, costs, timezone, months(nextMonth(month, -11)), (d) => nextMonth(d)),
        expectedDays(r, costs, timezone, months(nextMonth(month, -23)), (d) => nextMonth(d)),
      );
    },
  );
});

describe('CSV export across Adelaide’s clock changes', () => {
  it('writes hours as local time with the offset, so the repeated 02:30 is told apart', async () => {
    await setNow(AUTUMN_NOW);
    const lines = (
      await cmA.get(`${zoneUrl.get('Australia/Adelaide')}/consumption/export.csv?window=day`)
    ).body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const r = rollUp(2, 'Australia/Adelaide');
    const costs = dayCosts(r.days);
    const at = (hour: string) =>
      expectedHours(r, costs, 'Australia/Adelaide', Date.parse(hour))
        .slice(0, 1)
        .map((b) => `${volume(b.volume)},m3,${formatAmount(b.cost, 'EUR')},EUR`)[0];
    expect(lines).toContain(
      `2026-04-05 02:30+10:30,2026-04-05 02:30+09:30,Customer A,A site 1,Australia/Adelaide,Zone Australia/Adelaide,${at('2026-04-04T16:00:00Z')}`,
    );
    expect(lines).toContain(
      `2026-04-05 02:30+09:30,2026-04-05 03:30+09:30,Customer A,A site 1,Australia/Adelaide,Zone Australia/Adelaide,${at('2026-04-04T17:00:00Z')}`,
    );
    await setNow(SPRING_NOW);
    const spring = (await cmA.get(`${zoneUrl.get('Australia/Adelaide')}/consumption/export.csv?window=day`))
      .body;
    expect(spring).toContain('2026-10-04 01:30+09:30,2026-10-04 03:30+10:30,');
    const kathmandu = (await cmA.get(`${zoneUrl.get('Asia/Kathmandu')}/consumption/export.csv?window=day`))
      .body;
    expect(kathmandu).toContain('2026-10-03 23:45+05:45,2026-10-04 00:45+05:45,');
  });
});
