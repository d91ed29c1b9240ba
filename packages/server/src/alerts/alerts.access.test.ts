import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, buildings, zones } from '../db/schema.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  siteManagerWithout,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

type ActorName = 'provider' | 'cmA' | 'smA' | 'cmB' | 'smB';
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

const alertState = async (id: string) =>
  (await t.db.select().from(alerts).where(eq(alerts.id, id)))[0]!.state;

/*
 * Who may call what (each alert call × each kind of user), bad input and the activity log lines are
 * in the shared walks: access/tenancy.test.ts, http/bad-input.test.ts, events/events.test.ts. Here:
 * what those cannot say, which alerts each one is given and what a denied permission changes.
 */
describe('what each caller is given', () => {
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

  it("filters by zone: that zone's alerts only, for whoever may read it", async () => {
    const [a1, a2] = [await alertIn('a1'), await alertIn('a2')];
    for (const actor of ['provider', 'cmA', 'smA'] as const) {
      const res = await clients[actor].get(`/v1/alerts/list?zone_id=${zoneIn.a1}&limit=200`);
      const items = res.json().items as { id: string; zone_id: string }[];
      expect(items.map((a) => a.id)).toContain(a1);
      expect(items.map((a) => a.id)).not.toContain(a2);
      expect(items.every((a) => a.zone_id === zoneIn.a1)).toBe(true);
    }
  });

  it('counts for each caller only the alerts it may see', async () => {
    const count = async (actor: ActorName) =>
      (await clients[actor].get('/v1/alerts/count')).json() as { open: number; silenced: number };
    const before = { cmA: await count('cmA'), smA: await count('smA'), cmB: await count('cmB') };
    await alertIn('a2');
    expect(await count('cmA')).toEqual({ ...before.cmA, open: before.cmA.open + 1 });
    expect(await count('smA')).toEqual(before.smA);
    expect(await count('cmB')).toEqual(before.cmB);
  });

  it('counts within the customer, site, building or zone asked, and refuses another customer', async () => {
    const count = async (actor: ActorName, query: string) => {
      const res = await clients[actor].get(`/v1/alerts/count?${query}`);
      expect(res.statusCode, query).toBe(200);
      return res.json() as { open: number; silenced: number };
    };
    const byPlace = async () => ({
      customerA: await count('provider', `customer_id=${w.customers.a.id}`),
      customerB: await count('provider', `customer_id=${w.customers.b.id}`),
      siteA1: await count('cmA', `site_id=${w.sites.a1.id}`),
      siteA2: await count('cmA', `site_id=${w.sites.a2.id}`),
      zoneA1: await count('smA', `zone_id=${zoneIn.a1}`),
    });
    const before = await byPlace();
    await alertIn('a2');
    const after = await byPlace();
    expect(after).toEqual({
      ...before,
      customerA: { ...before.customerA, open: before.customerA.open + 1 },
      siteA2: { ...before.siteA2, open: before.siteA2.open + 1 },
    });
    expect((await clients.cmA.get(`/v1/alerts/count?customer_id=${w.customers.b.id}`)).statusCode).toBe(403);
    expect((await clients.smB.get(`/v1/alerts/count?zone_id=${zoneIn.a1}`)).statusCode).toBe(403);
  });

  it('refuses a site manager whose alerts.manage permission is denied, and writes nothing', async () => {
    const id = await alertIn('a1');
    const denied = await siteManagerWithout(t, w, 'sm.noalerts@test.io', 'alerts.manage');
    const res = await denied.post(`/v1/alerts/${id}/silence`);
    expect(res.statusCode).toBe(403);
    expect(await alertState(id)).toBe('open');
    expect((await denied.get(`/v1/alerts/${id}/info`)).statusCode).toBe(200);
  });
});

describe('alert lines in the logs', () => {
  it('shows alert lines in the zone log of the customer', async () => {
    const id = await alertIn('a1');
    const res = await clients.cmA.get(`/v1/customers/${w.customers.a.id}/events?object_name=alert&limit=200`);
    expect(res.statusCode).toBe(200);
    expect((res.json().items as { object_id: string }[]).some((e) => e.object_id === id)).toBe(true);
  });
});
