import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, events, zones } from '../db/schema.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let basicZone: string;
let premiumZone: string;

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
  const zonesUrl = `${site}/buildings/${building}/zones/create`;
  basicZone = (await cmA.post(zonesUrl, zoneBody({ name: 'Basic zone' }))).json<{ id: string }>().id;
  premiumZone = (await cmA.post(zonesUrl, zoneBody({ name: 'Premium zone' }))).json<{ id: string }>().id;
  await t.db.update(zones).set({ serviceLevel: 'premium' }).where(eq(zones.id, premiumZone));
});
afterAll(() => t.close());

const raise = (
  zoneId: string,
  cause: string,
  category: Parameters<TestApp['services']['alerts']['raise']>[1]['category'] = 'flowbox_dysfunction',
) =>
  t.db.transaction((tx) => t.services.alerts.raise(tx, { category, zoneId, cause, details: { reading: 1 } }));

const eventsOf = (alertId: string) =>
  t.db
    .select()
    .from(events)
    .where(and(eq(events.objectName, 'alert'), eq(events.objectId, alertId)));

describe('the alert store', () => {
  it('opens an alert for a new cause, logs it, and counts a repeat instead of opening a second', async () => {
    const first = await raise(basicZone, 'dedup-cause');
    expect(first.raised).toBe('opened');
    t.clock.advance(60_000);
    const second = await raise(basicZone, 'dedup-cause');
    expect(second.raised).toBe('repeated');
    if (!first.raised || !second.raised) throw new Error('not raised');
    expect(second.alert.id).toBe(first.alert.id);
    expect(second.alert.count).toBe(2);
    expect(new Date(second.alert.last_seen_at).getTime()).toBeGreaterThan(
      new Date(first.alert.opened_at).getTime(),
    );
    const rows = await t.db.select().from(alerts).where(eq(alerts.cause, 'dedup-cause'));
    expect(rows).toHaveLength(1);
    const logged = await eventsOf(first.alert.id);
    expect(logged.map((e) => [e.actionName, e.origin])).toEqual([['alert_opened', 'system']]);
    expect(logged[0]!.zoneId).toBe(basicZone);
    expect(logged[0]!.customerId).toBe(w.customers.a.id);
  });

  it('counts a repeat on a silenced alert, and opens a new one once the old is resolved', async () => {
    const opened = await raise(basicZone, 'silenced-cause');
    if (!opened.raised) throw new Error('not raised');
    expect((await cmA.post(`/v1/alerts/${opened.alert.id}/silence`)).statusCode).toBe(200);
    const repeat = await raise(basicZone, 'silenced-cause');
    expect(repeat).toMatchObject({
      raised: 'repeated',
      alert: { id: opened.alert.id, state: 'silenced', count: 2 },
    });
    expect((await cmA.post(`/v1/alerts/${opened.alert.id}/resolve`)).statusCode).toBe(200);
    const again = await raise(basicZone, 'silenced-cause');
    if (!again.raised) throw new Error('not raised');
    expect(again.raised).toBe('opened');
    expect(again.alert.id).not.toBe(opened.alert.id);
  });

  it('never raises a premium-only category on a basic zone, and raises it on a premium one', async () => {
    expect(await raise(basicZone, 'temp', 'water_temperature')).toEqual({
      raised: false,
      reason: 'premium_only',
    });
    expect(await raise(basicZone, 'leak', 'leakage_detection')).toEqual({
      raised: false,
      reason: 'premium_only',
    });
    expect((await raise(premiumZone, 'temp', 'water_temperature')).raised).toBe('opened');
    expect(
      await t.db
        .select()
        .from(alerts)
        .where(eq(alerts.zoneId, basicZone))
        .then((r) => r.some((a) => a.cause === 'temp')),
    ).toBe(false);
  });

  it('does not raise a category a provider manager disabled', async () => {
    // Category settings are the service's: a customer manager may not change them.
    const refused = await cmA.put('/v1/alerts/settings/maintenance/update', { enabled: false });
    expect(refused.statusCode).toBe(403);
    await t.db.transaction((tx) =>
      import('./alert-settings.ts').then(async ({ saveCategorySetting, defaultCategorySetting }) =>
        saveCategorySetting(tx, { ...defaultCategorySetting('maintenance'), enabled: false }, t.clock.now()),
      ),
    );
    expect(await raise(basicZone, 'maint', 'maintenance')).toEqual({ raised: false, reason: 'disabled' });
    await t.db.transaction((tx) =>
      import('./alert-settings.ts').then(({ saveCategorySetting, defaultCategorySetting }) =>
        saveCategorySetting(tx, defaultCategorySetting('maintenance'), t.clock.now()),
      ),
    );
    expect((await raise(basicZone, 'maint', 'maintenance')).raised).toBe('opened');
  });

  it('resolves an alert automatically when its cause clears, recorded as such', async () => {
    const opened = await raise(basicZone, 'clears');
    if (!opened.raised) throw new Error('not raised');
    const cleared = await t.db.transaction((tx) =>
      t.services.alerts.clear(tx, { zoneId: basicZone, cause: 'clears' }),
    );
    expect(cleared).toBe(true);
    const info = (await cmA.get(`/v1/alerts/${opened.alert.id}/info`)).json();
    expect(info).toMatchObject({ state: 'resolved', resolved_automatically: true, resolved_by: null });
    const logged = await eventsOf(opened.alert.id);
    expect(logged.find((e) => e.actionName === 'alert_resolved')).toMatchObject({
      origin: 'system',
      userId: null,
    });
    expect(
      await t.db.transaction((tx) => t.services.alerts.clear(tx, { zoneId: basicZone, cause: 'clears' })),
    ).toBe(false);
  });

  it('rolls the alert back with the transaction that raised it', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await t.services.alerts.raise(tx, {
          category: 'maintenance',
          zoneId: basicZone,
          cause: 'rolled-back',
          details: {},
        });
        throw new Error('detection failed');
      }),
    ).rejects.toThrow('detection failed');
    expect(await t.db.select().from(alerts).where(eq(alerts.cause, 'rolled-back'))).toHaveLength(0);
  });
});

describe('the alert lifecycle by a user', () => {
  it('silences, unsilences and resolves, each logged with who did it; a wrong move is refused', async () => {
    const opened = await raise(basicZone, 'lifecycle');
    if (!opened.raised) throw new Error('not raised');
    const url = `/v1/alerts/${opened.alert.id}`;
    expect((await cmA.post(`${url}/unsilence`)).statusCode).toBe(409);
    expect((await cmA.post(`${url}/silence`)).json()).toMatchObject({ state: 'silenced' });
    expect((await cmA.post(`${url}/silence`)).statusCode).toBe(409);
    expect((await cmA.post(`${url}/unsilence`)).json()).toMatchObject({ state: 'open', silenced_at: null });
    const resolved = (await cmA.post(`${url}/resolve`)).json();
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolved_by: 'Cara Amanager',
      resolved_automatically: false,
    });
    const refused = await cmA.post(`${url}/resolve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This alert has already changed: reload the page to see its state');
    const logged = await eventsOf(opened.alert.id);
    expect(logged.map((e) => [e.actionName, e.userName]).sort()).toEqual(
      [
        ['alert_opened', null],
        ['alert_resolved', 'Cara Amanager'],
        ['alert_silenced', 'Cara Amanager'],
        ['alert_unsilenced', 'Cara Amanager'],
      ].sort(),
    );
  });

  it('lists alerts with filters and counts the open ones', async () => {
    const list = (q: string) =>
      cmA
        .get(`/v1/alerts/list?${q}`)
        .then((r) => r.json<{ items: { cause: string; state: string; category: string }[] }>());
    const active = await list(`state=active&zone_id=${basicZone}`);
    expect(active.items.every((a) => a.state !== 'resolved')).toBe(true);
    const byCategory = await list('category=water_temperature');
    expect(byCategory.items.map((a) => a.cause)).toEqual(['temp']);
    const count = (await cmA.get('/v1/alerts/count')).json<{ open: number }>();
    const open = await list('state=open&limit=200');
    expect(count.open).toBe(open.items.length);
  });
});
