import {
  addDays,
  localDate,
  localDateTime,
  localToInstant,
  startOfLocalDay,
  type WaterBalance,
} from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, buildings, buildingWaterBalance, zones } from '../db/schema.ts';
import {
  createWorld,
  createTestApp,
  loginAs,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { pairDirectly, reading, type PairedDevice, type TelemetryZone } from '../telemetry/testing.ts';
import { TelemetryWriter } from '../telemetry/writer.ts';

/*
 * A building whose main supply has its own flowbox (docs/automation.md "Building water balance"):
 * the main supply, a kitchen and washrooms, fed through the real ingest (the app's own listeners).
 * The main supply measures 30 L an hour at night and the two zones 10 and 12: 8 L an hour go
 * nowhere a zone's meter sees. On PGlite, and on PostgreSQL with FLOWBOX_TEST_PG.
 */

const HOUR = 3_600_000;
const TZ = 'Europe/Paris';
const log = { warn: () => undefined, error: () => undefined };

let t: TestApp;
let w: World;
let cmA: ApiClient;
let cmB: ApiClient;
let path = '';
let mainZone = '';
let otherBuildingZone = '';
const meters = {} as Record<'main' | 'kitchen' | 'washrooms', PairedDevice>;
/** Three nights (local dates): the last one judged by the job, the one before with a gap, and one before that. */
const nights = { leaky: '', gap: '', latest: '' };

/** A night's UTC hours, computed here from the wall clock (not with the code under test). */
function nightHours(date: string): number[] {
  const start = startOfLocalDay(date, TZ).getTime();
  const end = localToInstant(date, '05:00', TZ).getTime();
  const hours: number[] = [];
  for (let h = Math.ceil(start / HOUR) * HOUR; h < end; h += HOUR) hours.push(h);
  return hours;
}

async function zoneIn(buildingId: string, name: string, premium = false): Promise<string> {
  const [row] = await t.db
    .insert(zones)
    .values({
      buildingId,
      name,
      profile: 'sanitary',
      flowboxModel: 'one_inch_v1',
      waterTemperature: 'cold',
      serviceLevel: premium ? 'premium' : 'basic',
    })
    .returning();
  return row!.id;
}

async function building(siteId: string, name: string): Promise<string> {
  const [row] = await t.db
    .insert(buildings)
    .values({
      siteId,
      name,
      type: 'office',
      address: '1 rue de la Paix',
      city: 'Paris',
      zipCode: '75002',
      country: 'FR',
      timezone: TZ,
      volumeUnit: 'liter',
      currency: 'EUR',
      firstDayOfWeek: 'monday',
      weekend: ['saturday', 'sunday'],
    })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  [cmA, cmB] = await Promise.all([loginAs(t.app, 'cm.a@test.io'), loginAs(t.app, 'cm.b@test.io')]);
  const customerId = w.customers.a.id;
  const siteId = w.sites.a1.id;
  const buildingId = await building(siteId, 'Balance building');
  path = `/v1/customers/${customerId}/sites/${siteId}/buildings/${buildingId}`;
  mainZone = await zoneIn(buildingId, 'Main supply', true);
  const kitchen = await zoneIn(buildingId, 'Kitchen');
  const washrooms = await zoneIn(buildingId, 'Washrooms');
  otherBuildingZone = await zoneIn(await building(siteId, 'Other building'), 'Elsewhere');
  const place = (zoneId: string): TelemetryZone => ({ customerId, siteId, buildingId, zoneId });
  meters.main = await pairDirectly(t.db, place(mainZone));
  meters.kitchen = await pairDirectly(t.db, place(kitchen));
  meters.washrooms = await pairDirectly(t.db, place(washrooms));

  // The newest night the job judges: it ended (05:00) an hour ago at least.
  const now = t.clock.now();
  const today = localDate(now, TZ);
  nights.latest = localDateTime(now, TZ).slice(11) >= '06:00' ? today : addDays(today, -1);
  nights.gap = addDays(nights.latest, -1);
  nights.leaky = addDays(nights.latest, -2);

  // Hourly readings (interval 3600 s), each ending at the end of its hour, through the app's ingest.
  const writer = new TelemetryWriter(t.services.context, t.services.telemetry, log);
  const seq = { main: 0, kitchen: 0, washrooms: 0 };
  const send = (meter: keyof typeof meters, hour: number, liters: number) =>
    writer.submit(meters[meter].serial, {
      ...reading(++seq[meter], new Date(hour + HOUR), liters, 3600),
      sent_at: now.toISOString(),
    });
  const sent: Promise<unknown>[] = [];
  for (const night of [nights.leaky, nights.gap, nights.latest]) {
    // The evening before: the main supply's big hour, outside every night.
    const evening = nightHours(night)[0]! - HOUR;
    sent.push(send('main', evening, 100), send('kitchen', evening, 60), send('washrooms', evening, 40));
    nightHours(night).forEach((hour, i) => {
      sent.push(send('main', hour, 30), send('kitchen', hour, 10));
      // The gap night: the washrooms' meter sent nothing for its third hour.
      if (!(night === nights.gap && i === 2)) sent.push(send('washrooms', hour, 12));
    });
  }
  await Promise.all(sent);
  await writer.close();
});
afterAll(() => t.close());

const settingsUrl = () => `${path}/water_balance/settings`;
const balanceUrl = (query: string) => `${path}/water_balance?${query}`;

async function balance(query: string): Promise<WaterBalance> {
  const res = await cmA.get(balanceUrl(query));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WaterBalance;
}

async function judge(): Promise<void> {
  await t.services.waterBalance.judgeDueNights();
}

const balanceAlerts = () =>
  t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.cause, 'water_balance'), eq(alerts.zoneId, mainZone)))
    .orderBy(alerts.openedAt);

describe('the water balance of a building with a main supply flowbox', () => {
  it('is empty until a main supply is set', async () => {
    const answer = await balance(`by=night&from=${nights.leaky}&to=${nights.latest}`);
    expect(answer.settings.main_supply_zone_id).toBeNull();
    expect(answer.buckets).toEqual([]);
  });

  it('is set by a manager of the building, with a zone of the building only', async () => {
    const body = { main_supply_zone_id: mainZone, alert_liters_per_night: 35, alert_share_pct: null };
    expect((await cmB.put(settingsUrl(), body)).statusCode).toBe(403);
    const elsewhere = await cmA.put(settingsUrl(), { ...body, main_supply_zone_id: otherBuildingZone });
    expect(elsewhere.statusCode).toBe(404);
    const saved = await cmA.put(settingsUrl(), body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(body);
  });

  it('refuses bad settings and bad windows with a 400 and a message', async () => {
    const bad = [
      { main_supply_zone_id: 'not-a-zone', alert_liters_per_night: null, alert_share_pct: null },
      { main_supply_zone_id: mainZone, alert_liters_per_night: 0, alert_share_pct: null },
      { main_supply_zone_id: mainZone, alert_liters_per_night: null, alert_share_pct: 150 },
      { main_supply_zone_id: mainZone, alert_liters_per_night: 2.5, alert_share_pct: null },
    ];
    for (const body of bad) expect((await cmA.put(settingsUrl(), body)).statusCode).toBe(400);
    expect((await cmA.get(balanceUrl('by=week'))).statusCode).toBe(400);
    const long = await cmA.get(balanceUrl('by=hour&from=2026-01-01&to=2026-02-15'));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('A water balance covers at most 31 days');
    expect((await cmA.get(balanceUrl('by=hour&from=2026-02-15&to=2026-01-01'))).statusCode).toBe(400);
    expect((await cmA.get(balanceUrl(`from=${nights.leaky}`))).statusCode).toBe(400);
  });

  it('per night: main supply minus the zones, 8 L an hour unaccounted', async () => {
    const answer = await balance(`by=night&from=${nights.leaky}&to=${nights.latest}`);
    expect(answer.main_supply_zone_name).toBe('Main supply');
    expect(answer.buckets.map((b) => b.date)).toEqual([nights.leaky, nights.gap, nights.latest]);
    const [leaky, gap, latest] = answer.buckets;
    const hours = nightHours(nights.leaky).length;
    expect(leaky).toMatchObject({
      start: new Date(nightHours(nights.leaky)[0]!).toISOString(),
      main_l: 30 * hours,
      zones_l: 22 * hours,
      unaccounted_l: 8 * hours,
      complete: true,
      incomplete_hours: 0,
      missing: [],
    });
    expect(leaky!.unaccounted_share).toBeCloseTo(8 / 30, 4);
    expect(latest).toMatchObject({ unaccounted_l: 8 * nightHours(nights.latest).length, complete: true });
    // The washrooms' missing hour is left out, not counted as 12 L lost.
    const gapHours = nightHours(nights.gap).length;
    expect(gap).toMatchObject({
      main_l: 30 * gapHours,
      zones_l: 22 * gapHours - 12,
      unaccounted_l: 8 * (gapHours - 1),
      complete: false,
      incomplete_hours: 1,
      missing: [meters.washrooms.serial],
    });
    expect(answer.totals).toMatchObject({
      unaccounted_l: 8 * (hours + gapHours - 1 + nightHours(nights.latest).length),
      incomplete_hours: 1,
    });
  });

  it('per hour: the evening hour outside the night, and the gap hour marked incomplete', async () => {
    const answer = await balance(`by=hour&from=${nights.gap}&to=${nights.gap}`);
    const byStart = new Map(answer.buckets.map((b) => [Date.parse(b.start), b]));
    const hours = nightHours(nights.gap);
    expect(byStart.get(hours[0]!)).toMatchObject({
      main_l: 30,
      zones_l: 22,
      unaccounted_l: 8,
      complete: true,
    });
    expect(byStart.get(hours[2]!)).toMatchObject({
      main_l: 30,
      zones_l: 10,
      unaccounted_l: null,
      unaccounted_share: null,
      complete: false,
      missing: [meters.washrooms.serial],
    });
    // An hour of the day with no reading from anyone: incomplete, nothing lost.
    const noon = localToInstant(nights.gap, '12:00', TZ).getTime();
    expect(byStart.get(noon)).toMatchObject({ main_l: 0, zones_l: 0, unaccounted_l: null, complete: false });
    // The local day of the gap night holds 24 hours (no clock change in the test's season, or 23/25).
    expect(answer.buckets.length).toBeGreaterThanOrEqual(23);
  });

  it("leaves the main supply out of the building's consumption, so no water counts twice", async () => {
    const res = await cmA.get(`${path}/consumption/zones?window=week`);
    expect(res.statusCode).toBe(200);
    const names = (res.json() as { zones: { zone_name: string }[] }).zones.map((z) => z.zone_name);
    expect(names.sort()).toEqual(['Kitchen', 'Washrooms']);
    // The main supply zone's own figures are still there on its page.
    expect((await cmA.get(`${path}/zones/${mainZone}/consumption?window=week`)).statusCode).toBe(200);
  });

  it('raises one leak alert for a night past the threshold, and resolves it once back under', async () => {
    await judge();
    let found = await balanceAlerts();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ category: 'leakage_detection', state: 'open', count: 1 });
    expect(found[0]!.details).toMatchObject({
      night: nights.latest,
      unaccounted_l: 8 * nightHours(nights.latest).length,
      threshold_l: 35,
    });
    // Judged again (the same night made due again): still one alert, not a second one.
    await t.db.update(buildingWaterBalance).set({ judgeAt: new Date(0) });
    await judge();
    found = await balanceAlerts();
    expect(found).toHaveLength(1);
    expect(found[0]!.count).toBe(1);
    // The manager raises the threshold above the night's 40 L: back under, resolved.
    const higher = { main_supply_zone_id: mainZone, alert_liters_per_night: 50, alert_share_pct: null };
    expect((await cmA.put(settingsUrl(), higher)).statusCode).toBe(200);
    await judge();
    found = await balanceAlerts();
    expect(found.map((a) => [a.state, a.resolvedAutomatically])).toEqual([['resolved', true]]);
    // A share threshold the night passes (8 of 30 L, 27 %): a new episode, a new alert.
    const share = { main_supply_zone_id: mainZone, alert_liters_per_night: null, alert_share_pct: 25 };
    expect((await cmA.put(settingsUrl(), share)).statusCode).toBe(200);
    await judge();
    found = await balanceAlerts();
    expect(found.map((a) => a.state)).toEqual(['resolved', 'open']);
    expect(found[1]!.details).toMatchObject({ threshold_pct: 25 });
  });

  it('never judges a night with a gap as a loss', async () => {
    // Only the gap night is judged here: its complete hours' 32 L are under no threshold's reach.
    const strict = { main_supply_zone_id: mainZone, alert_liters_per_night: 1, alert_share_pct: null };
    expect((await cmA.put(settingsUrl(), strict)).statusCode).toBe(200);
    const open = (await balanceAlerts()).filter((a) => a.state !== 'resolved');
    expect(open).toHaveLength(1);
    const buildingId = path.split('/').at(-1)!;
    expect(await t.services.waterBalance.judgeNight(buildingId, nights.gap)).toBe('incomplete');
    expect(await t.services.waterBalance.judgeNight(buildingId, nights.leaky)).toBe('over');
  });

  it('turning the alert off resolves what is open', async () => {
    const off = { main_supply_zone_id: mainZone, alert_liters_per_night: null, alert_share_pct: null };
    expect((await cmA.put(settingsUrl(), off)).statusCode).toBe(200);
    expect((await balanceAlerts()).every((a) => a.state === 'resolved')).toBe(true);
  });
});
