import { ROLES, translate, type AlertCategory } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertAnswers, buildings, events, zones } from '../db/schema.ts';
import {
  buildingBody,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * "Was this you?" (issue 33, docs/alerts.md): POST /v1/alerts/{id}/answer {"answer":"me"|"not_me"}
 * on a leak or abnormal-use alert, by its zone's end users and managers; one answer per person (a
 * new one replaces theirs), logged, shown to the zone's managers on the alert, and summed per zone
 * over the last 90 days.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smB: ApiClient;
let euA: ApiClient;
let euA2: ApiClient;
let euB: ApiClient;
let plA: ApiClient;
const zone = { a: '', b: '' };
let zonePathA = '';

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 365 * 86400 });
  w = await createWorld(t.db);
  for (const [key, site] of [
    ['a', w.sites.a1],
    ['b', w.sites.b1],
  ] as const) {
    const body = buildingBody();
    const [building] = await t.db
      .insert(buildings)
      .values({
        siteId: site.id,
        name: `Building ${key}`,
        type: 'residential',
        address: body.address,
        city: body.city,
        zipCode: body.zipCode,
        country: body.country,
        timezone: 'Europe/Paris',
        volumeUnit: 'liter',
        currency: 'EUR',
        firstDayOfWeek: 'monday',
        weekend: ['saturday', 'sunday'],
      })
      .returning();
    const [row] = await t.db
      .insert(zones)
      .values({
        buildingId: building!.id,
        name: `Flat ${key}`,
        profile: 'housing',
        flowboxModel: 'one_inch_v1',
        waterTemperature: 'cold',
        serviceLevel: 'premium',
      })
      .returning();
    zone[key] = row!.id;
    if (key === 'a')
      zonePathA = `/v1/customers/${w.customers.a.id}/sites/${site.id}/buildings/${building!.id}/zones/${row!.id}`;
  }
  const person = (email: string, firstname: string, lastname: string, zoneId: string, customerId: string) =>
    createUser(t.db, { email, role: ROLES.end_user, customerId, zoneIds: [zoneId], firstname, lastname });
  await person('eu.a@test.io', 'Ann', 'Resident', zone.a, w.customers.a.id);
  await person('eu.a2@test.io', 'Ben', 'Flatmate', zone.a, w.customers.a.id);
  await person('eu.b@test.io', 'Bea', 'Elsewhere', zone.b, w.customers.b.id);
  await createUser(t.db, {
    email: 'pl.a@test.io',
    role: ROLES.plumber,
    customerId: w.customers.a.id,
    siteIds: [w.sites.a1.id],
    firstname: 'Paul',
    lastname: 'Plumber',
  });
  cmA = await loginAs(t.app, 'cm.a@test.io');
  smB = await loginAs(t.app, 'sm.b@test.io');
  euA = await loginAs(t.app, 'eu.a@test.io');
  euA2 = await loginAs(t.app, 'eu.a2@test.io', 'fr');
  euB = await loginAs(t.app, 'eu.b@test.io');
  plA = await loginAs(t.app, 'pl.a@test.io');
});
afterAll(() => t.close());

let causes = 0;
async function alertIn(zoneId: string, category: AlertCategory = 'leakage_detection'): Promise<string> {
  const outcome = await t.db.transaction((tx) =>
    t.services.alerts.raise(tx, {
      category,
      zoneId,
      cause: `answers-${++causes}`,
      details: {
        volume_l: 12,
        flow_minutes: 130,
        flow_s: 7800,
        event_started_at: t.clock.now().toISOString(),
      },
    }),
  );
  if (!outcome.raised) throw new Error(`not raised: ${outcome.reason}`);
  return outcome.alert.id;
}

const answersOf = (alertId: string) =>
  t.db.select().from(alertAnswers).where(eq(alertAnswers.alertId, alertId));

describe('answering "Was this you?"', () => {
  it('an end user of the zone answers "me"; a new answer replaces theirs; each answer is logged', async () => {
    const alertId = await alertIn(zone.a);
    const first = await euA.post(`/v1/alerts/${alertId}/answer`, { answer: 'me' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().answers).toEqual([
      {
        user_id: expect.any(String),
        user_name: 'Ann Resident',
        answer: 'me',
        answered_at: expect.any(String),
      },
    ]);
    t.clock.advance(60_000);
    const second = await euA.post(`/v1/alerts/${alertId}/answer`, { answer: 'not_me' });
    expect(second.json().answers).toMatchObject([{ answer: 'not_me' }]);
    // The new answer's time replaced the first's (the clock moved a minute).
    expect(
      Date.parse(second.json().answers[0].answered_at) - Date.parse(first.json().answers[0].answered_at),
    ).toBeGreaterThanOrEqual(60_000);
    expect(await answersOf(alertId)).toHaveLength(1);
    const lines = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, alertId), eq(events.actionName, 'alert_answered')));
    expect(lines.map((l) => [l.userName, l.origin, l.changedFields])).toEqual([
      ['Ann Resident', 'web', ['leakage_detection', 'me']],
      ['Ann Resident', 'web', ['leakage_detection', 'not_me']],
    ]);
  });

  it('the zone’s managers read every answer on the alert; an end user reads its own only', async () => {
    const alertId = await alertIn(zone.a, 'abnormal_water_consumption_no_ac');
    expect((await euA.post(`/v1/alerts/${alertId}/answer`, { answer: 'me' })).statusCode).toBe(200);
    expect((await euA2.post(`/v1/alerts/${alertId}/answer`, { answer: 'not_me' })).statusCode).toBe(200);
    expect((await cmA.post(`/v1/alerts/${alertId}/answer`, { answer: 'not_me' })).statusCode).toBe(200);
    const names = (items: { user_name: string }[]) => items.map((a) => a.user_name).sort();
    const managers = await cmA.get(`/v1/alerts/list?zone_id=${zone.a}&state=active&limit=200`);
    const seen = managers.json().items.find((a: { id: string }) => a.id === alertId);
    expect(names(seen.answers)).toEqual(['Ann Resident', 'Ben Flatmate', 'Cara Amanager']);
    const own = (await euA.get(`/v1/alerts/${alertId}/info`)).json();
    expect(own.answers).toMatchObject([{ user_name: 'Ann Resident', answer: 'me' }]);
  });

  it('is asked on leak and abnormal-use alerts only (409), in the caller’s language', async () => {
    const alertId = await alertIn(zone.a, 'flowbox_dysfunction');
    const res = await euA2.post(`/v1/alerts/${alertId}/answer`, { answer: 'me' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'errors.alert_not_answerable',
      message: translate('errors.alert_not_answerable', 'fr'),
    });
    expect(await answersOf(alertId)).toEqual([]);
    // Its answers are not asked for either: no field on the alert.
    expect((await euA.get(`/v1/alerts/${alertId}/info`)).json().answers).toBeUndefined();
  });

  it('an end user of zone B neither reads nor answers zone A’s alert; a plumber and another customer’s manager do not answer', async () => {
    const alertId = await alertIn(zone.a);
    for (const client of [euB, plA, smB]) {
      const res = await client.post(`/v1/alerts/${alertId}/answer`, { answer: 'me' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('errors.forbidden');
    }
    expect((await euB.get(`/v1/alerts/${alertId}/info`)).statusCode).toBe(403);
    const listed = await euB.get('/v1/alerts/list?state=active&limit=200');
    expect(listed.json().items.map((a: { id: string }) => a.id)).not.toContain(alertId);
    expect(await answersOf(alertId)).toEqual([]);
  });

  it('refuses any other answer, and an alert that does not exist', async () => {
    const alertId = await alertIn(zone.a);
    for (const body of [{ answer: 'maybe' }, {}, { answer: true }]) {
      const res = await euA.post(`/v1/alerts/${alertId}/answer`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual([{ path: 'answer', message: translate('validation.select', 'en') }]);
    }
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect((await euA.post(`/v1/alerts/${ghost}/answer`, { answer: 'me' })).statusCode).toBe(403);
    expect(await answersOf(alertId)).toEqual([]);
  });
});

describe("a zone's answers over the last 90 days", () => {
  it('counts "me" and "not me" and the alerts answered, for the zone’s managers and the backtest', async () => {
    // An answer older than 90 days is left out.
    const old = await alertIn(zone.b);
    const cmB = await loginAs(t.app, 'cm.b@test.io');
    expect((await cmB.post(`/v1/alerts/${old}/answer`, { answer: 'me' })).statusCode).toBe(200);
    t.clock.advance(91 * 86_400_000);
    const recent = await alertIn(zone.b);
    await cmB.post(`/v1/alerts/${recent}/answer`, { answer: 'not_me' });
    await euB.post(`/v1/alerts/${recent}/answer`, { answer: 'not_me' });
    const res = await cmB.get(`/v1/alerts/answers/summary?zone_id=${zone.b}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ zone_id: zone.b, days: 90, me: 0, not_me: 2, alerts_answered: 1 });
    // End users, plumbers and other customers' managers do not read it.
    expect((await euB.get(`/v1/alerts/answers/summary?zone_id=${zone.b}`)).statusCode).toBe(403);
    expect((await cmA.get(`/v1/alerts/answers/summary?zone_id=${zone.b}`)).statusCode).toBe(403);
  });

  it('stands beside the backtest of the zone', async () => {
    await euA.post(`/v1/alerts/${await alertIn(zone.a)}/answer`, { answer: 'me' });
    const res = await cmA.post(`${zonePathA}/automation/backtest`, { days: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().answers).toMatchObject({ zone_id: zone.a, days: 90 });
    expect(res.json().answers).toMatchObject({ me: 1, not_me: 0, alerts_answered: 1 });
  });
});
