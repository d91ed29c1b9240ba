import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertCategorySettings, alerts, buildings, events, zones } from '../db/schema.ts';
import {
  ApiClient,
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * The alert calls in the tenant matrix, with bad input and the activity log (the same rules as
 * access/tenancy.test.ts, http/bad-input.test.ts and events/events.test.ts, for docs/alerts.md).
 */

type ActorName = 'provider' | 'cmA' | 'smA' | 'cmB' | 'smB' | 'anonymous';
const clients = {} as Record<ActorName, ApiClient>;
let t: TestApp;
let w: World;
const zoneIn = {} as Record<'a1' | 'a2' | 'b1', string>;

beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  for (const site of ['a1', 'a2', 'b1'] as const) {
    const body = buildingBody();
    const [building] = await t.db
      .insert(buildings)
      .values({
        siteId: w.sites[site].id,
        name: `Building ${site}`,
        type: 'office',
        address: body.address,
        city: body.city,
        zipCode: body.zipCode,
        country: body.country,
        timezone: body.timezone,
        volumeUnit: 'm3',
        currency: 'EUR',
        firstDayOfWeek: 'monday',
        weekend: ['saturday', 'sunday'],
      })
      .returning();
    const [zone] = await t.db
      .insert(zones)
      .values({
        buildingId: building!.id,
        name: `Zone ${site}`,
        profile: 'sanitary',
        flowboxModel: 'one_inch_v1',
        waterTemperature: 'cold',
      })
      .returning();
    zoneIn[site] = zone!.id;
  }
  const emails = {
    provider: 'provider@test.io',
    cmA: 'cm.a@test.io',
    smA: 'sm.a@test.io',
    cmB: 'cm.b@test.io',
    smB: 'sm.b@test.io',
  };
  for (const [actor, email] of Object.entries(emails))
    clients[actor as ActorName] = await loginAs(t.app, email);
  clients.anonymous = new ApiClient(t.app);
});
afterAll(() => t.close());

let causes = 0;
async function alertIn(site: 'a1' | 'a2' | 'b1'): Promise<string> {
  const outcome = await t.db.transaction((tx) =>
    t.services.alerts.raise(tx, {
      category: 'flowbox_dysfunction',
      zoneId: zoneIn[site],
      cause: `matrix-${++causes}`,
      details: {},
    }),
  );
  if (!outcome.raised) throw new Error('not raised');
  return outcome.alert.id;
}

const alertEvents = async () =>
  (await t.db.select({ n: count() }).from(events).where(eq(events.objectName, 'alert')))[0]!.n;
const alertState = async (id: string) =>
  (await t.db.select().from(alerts).where(eq(alerts.id, id)))[0]!.state;

type Expected = Record<Exclude<ActorName, 'anonymous'>, number>;
const readA1: Expected = { provider: 200, cmA: 200, smA: 200, cmB: 403, smB: 403 };
const readA2: Expected = { provider: 200, cmA: 200, smA: 403, cmB: 403, smB: 403 };
const everyone: Expected = { provider: 200, cmA: 200, smA: 200, cmB: 200, smB: 200 };
const providerOnly: Expected = { provider: 200, cmA: 403, smA: 403, cmB: 403, smB: 403 };

const ACTORS: ActorName[] = ['provider', 'cmA', 'smA', 'cmB', 'smB', 'anonymous'];

describe('alert calls in the tenant matrix', () => {
  const rows: [string, Expected, () => Promise<['GET' | 'POST' | 'PUT', string, unknown?]>][] = [
    ['list filtered on a zone of a1', readA1, async () => ['GET', `/v1/alerts/list?zone_id=${zoneIn.a1}`]],
    ['list filtered on site a2', readA2, async () => ['GET', `/v1/alerts/list?site_id=${w.sites.a2.id}`]],
    [
      'list filtered on customer A',
      { ...readA1, smA: 200 },
      async () => ['GET', `/v1/alerts/list?customer_id=${w.customers.a.id}`],
    ],
    ['count', everyone, async () => ['GET', '/v1/alerts/count']],
    ['settings list', everyone, async () => ['GET', '/v1/alerts/settings/list']],
    [
      'settings update',
      providerOnly,
      async () => ['PUT', '/v1/alerts/settings/maintenance/update', { email: true }],
    ],
    ['info of an alert in a1', readA1, async () => ['GET', `/v1/alerts/${await alertIn('a1')}/info`]],
    ['info of an alert in a2', readA2, async () => ['GET', `/v1/alerts/${await alertIn('a2')}/info`]],
    ['silence an alert in a1', readA1, async () => ['POST', `/v1/alerts/${await alertIn('a1')}/silence`]],
    ['resolve an alert in a1', readA1, async () => ['POST', `/v1/alerts/${await alertIn('a1')}/resolve`]],
    ['resolve an alert in a2', readA2, async () => ['POST', `/v1/alerts/${await alertIn('a2')}/resolve`]],
  ];
  for (const [name, expected, build] of rows)
    for (const actor of ACTORS)
      it(`${name}: ${actor} → ${actor === 'anonymous' ? 401 : expected[actor]}`, async () => {
        const [method, url, body] = await build();
        const id = /alerts\/([0-9a-f-]{36})\//.exec(url)?.[1];
        const before = id ? await alertState(id) : undefined;
        const res = await clients[actor].request(method, url, body);
        const status = actor === 'anonymous' ? 401 : expected[actor];
        expect(res.statusCode, res.body).toBe(status);
        if (status === 403) {
          expect(res.json().message).toBe('Unauthorized resource recovery');
          if (id) expect(await alertState(id)).toBe(before);
        }
      });

  it('lists for a site manager only the alerts of its sites, and for a customer manager only its customer', async () => {
    const [a1, a2, b1] = [await alertIn('a1'), await alertIn('a2'), await alertIn('b1')];
    const ids = async (actor: ActorName) =>
      ((await clients[actor].get('/v1/alerts/list?limit=200')).json().items as { id: string }[]).map(
        (a) => a.id,
      );
    expect(await ids('smA')).toContain(a1);
    expect(await ids('smA')).not.toContain(a2);
    expect(await ids('cmA')).toEqual(expect.arrayContaining([a1, a2]));
    expect(await ids('cmA')).not.toContain(b1);
    expect(await ids('provider')).toEqual(expect.arrayContaining([a1, a2, b1]));
  });

  it('answers the same 403 for an alert that does not exist', async () => {
    const res = await clients.cmA.post('/v1/alerts/00000000-0000-4000-8000-000000000000/resolve');
    expect(res.statusCode).toBe(403);
  });

  it('refuses a site manager whose alerts.manage permission is denied, and writes nothing', async () => {
    const id = await alertIn('a1');
    const { siteManagerWithout } = await import('../test/harness.ts');
    const denied = await siteManagerWithout(t, w, 'sm.noalerts@test.io', 'alerts.manage');
    const res = await denied.post(`/v1/alerts/${id}/silence`);
    expect(res.statusCode).toBe(403);
    expect(await alertState(id)).toBe('open');
    expect((await denied.get(`/v1/alerts/${id}/info`)).statusCode).toBe(200);
  });
});

describe('bad input to alert calls', () => {
  it.each([
    [
      'an unknown state',
      '/v1/alerts/list?state=burning',
      'Please select an option',
      'Veuillez sélectionner une option',
    ],
    [
      'a zone id that is no uuid',
      '/v1/alerts/list?zone_id=zone-1',
      'This value is not valid',
      "Cette valeur n'est pas valide",
    ],
    [
      'an end before the start',
      '/v1/alerts/list?from=2026-05-02&to=2026-05-01',
      'Should be posterior start date',
      'Doit être postérieure à la date de début',
    ],
    ['a limit of 0', '/v1/alerts/list?limit=0', null, null],
  ])('refuses %s with the catalogue message in EN and FR', async (_name, url, en, fr) => {
    const english = await clients.cmA.get(url);
    expect(english.statusCode).toBe(400);
    const french = await clients.cmA.request('GET', url, undefined, { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(400);
    const texts = (res: typeof english) => [
      res.json().message,
      ...((res.json().details ?? []) as { message: string }[]).map((d) => d.message),
    ];
    if (en) expect(texts(english)).toContain(en);
    if (fr) expect(texts(french).join(' | ')).toContain(fr.slice(0, 12));
  });

  it('refuses an empty subject, an unknown category and a bad alert id, and writes nothing', async () => {
    const before = await t.db.select().from(alertCategorySettings);
    const empty = await clients.provider.put('/v1/alerts/settings/maintenance/update', {
      subject: { en: ' ', fr: 'Maintenance' },
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json())).toContain('This field is required');
    const frEmpty = await clients.provider.request(
      'PUT',
      '/v1/alerts/settings/maintenance/update',
      { subject: { en: 'x', fr: '' } },
      { 'accept-language': 'fr' },
    );
    expect(JSON.stringify(frEmpty.json())).toContain('Ce champ est requis');
    expect((await clients.provider.put('/v1/alerts/settings/fire/update', { email: true })).statusCode).toBe(
      400,
    );
    expect(
      (await clients.provider.put('/v1/alerts/settings/maintenance/update', { email: 'yes' })).statusCode,
    ).toBe(400);
    expect((await clients.cmA.post('/v1/alerts/not-an-id/resolve')).statusCode).toBe(400);
    expect(await t.db.select().from(alertCategorySettings)).toEqual(before);
  });
});

describe('alert calls in the activity log', () => {
  it('writes one event per transition with who made it, and none for a refused one', async () => {
    const id = await alertIn('a1');
    const count0 = await alertEvents();
    await clients.smA.post(`/v1/alerts/${id}/silence`);
    await clients.smA.post(`/v1/alerts/${id}/unsilence`);
    await clients.cmA.post(`/v1/alerts/${id}/resolve`);
    expect(await alertEvents()).toBe(count0 + 3);
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, id), eq(events.origin, 'web')));
    expect(logged.map((e) => [e.actionName, e.userName, e.siteId]).sort()).toEqual(
      [
        ['alert_resolved', 'Cara Amanager', w.sites.a1.id],
        ['alert_silenced', 'Sam Asite', w.sites.a1.id],
        ['alert_unsilenced', 'Sam Asite', w.sites.a1.id],
      ].sort(),
    );
    expect((await clients.cmA.post(`/v1/alerts/${id}/silence`)).statusCode).toBe(409);
    expect((await clients.cmB.post(`/v1/alerts/${id}/unsilence`)).statusCode).toBe(403);
    expect(await alertEvents()).toBe(count0 + 3);
  });

  it('shows alert lines in the zone log of the customer', async () => {
    const id = await alertIn('a1');
    const res = await clients.cmA.get(`/v1/customers/${w.customers.a.id}/events?object_name=alert&limit=200`);
    expect(res.statusCode).toBe(200);
    expect((res.json().items as { object_id: string }[]).some((e) => e.object_id === id)).toBe(true);
  });
});
