import { randomUUID } from 'node:crypto';
import type { LiveMessage } from '@flowbox/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, flowboxCredentials } from '../db/schema.ts';
import { notifyLive } from '../live/index.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { newSecret, startMessaging, subscribe, TestDevice, uniqueSerial, until } from './testing.ts';

/*
 * Issue #4 follow-up: deleting a zone, building, site or customer deletes its flowboxes by cascade;
 * their devices must lose the broker as when they are detached (docs/hierarchy.md), on the
 * embedded broker with real MQTT clients.
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let url: string;

type Removal = Extract<LiveMessage, { type: 'flowbox_removed' }>;
/** Every flowbox_removed the live channel carried, as this instance's hub fans it out to browsers. */
const removals: Removal[] = [];

beforeAll(async () => {
  ({ t, w, provider, cmA } = await createWorldApp());
  messaging = await startMessaging(t);
  url = `mqtt://127.0.0.1:${messaging.port}`;
  t.services.live.subscribe((message) => {
    if (message.type === 'flowbox_removed') removals.push(message);
  });
});
afterAll(async () => {
  await messaging.close();
  await t.close();
});

type Place = { customer: string; site: string; building: string; zone: string };

/** A fresh building with one subscribed zone, under customer A's site a1 unless told otherwise. */
async function place(customerId = w.customers.a.id, siteId = w.sites.a1.id, as = cmA): Promise<Place> {
  const customer = `/v1/customers/${customerId}`;
  const site = `${customer}/sites/${siteId}`;
  const buildingId = (await as.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const building = `${site}/buildings/${buildingId}`;
  const zoneId = (await as.post(`${building}/zones/create`, zoneBody())).json().id as string;
  await subscribe(t, zoneId);
  return { customer, site, building, zone: `${building}/zones/${zoneId}` };
}

/** A device paired in the zone and signed in with its own credentials; and one still in pairing mode. */
async function devicesIn(zone: string, as = cmA) {
  const serial = uniqueSerial();
  const factorySecret = newSecret();
  const id = (await as.post(`${zone}/flowboxes/pair`, { serial, factory_secret: factorySecret })).json()
    .id as string;
  const bootstrap = await TestDevice.bootstrap(url, serial, factorySecret);
  await bootstrap.subscribe('pairing/response');
  expect((await bootstrap.requestPairing()).result).toBe('pending');
  const seen = bootstrap.received.length;
  expect((await as.post(`${zone}/flowboxes/${id}/validate`)).statusCode).toBe(200);
  const password = String((await bootstrap.next('pairing/response', seen)).message.password);
  await bootstrap.end();
  const device = await TestDevice.connect(url, serial, { username: serial, password });
  await device.subscribe('commands');

  const pendingSerial = uniqueSerial();
  const pendingSecret = newSecret();
  const pendingId = (
    await as.post(`${zone}/flowboxes/pair`, { serial: pendingSerial, factory_secret: pendingSecret })
  ).json().id as string;
  const pairing = await TestDevice.bootstrap(url, pendingSerial, pendingSecret);
  return {
    paired: { id, serial, password, device },
    pairing: { id: pendingId, serial: pendingSerial, secret: pendingSecret, device: pairing },
  };
}

/**
 * The removals announced since `from`, once every notification committed before this call has
 * arrived: a marker sent now comes after them (one channel, delivered in commit order).
 */
async function removalsSince(from: number): Promise<Removal[]> {
  const marker = randomUUID();
  await notifyLive(t.db, {
    type: 'flowbox_removed',
    flowbox_id: marker,
    customer_id: marker,
    site_id: marker,
    zone_id: marker,
  });
  await until(() => removals.some((r) => r.flowbox_id === marker));
  return removals.slice(from).filter((r) => r.flowbox_id !== marker);
}

/** Open screens are told once of each flowbox the deletion took, with the place it was in. */
async function expectRemovalsAnnounced(
  from: number,
  devices: Awaited<ReturnType<typeof devicesIn>>,
  where: { customerId: string; siteId: string; zone: string },
) {
  const place = {
    customer_id: where.customerId,
    site_id: where.siteId,
    zone_id: where.zone.split('/').at(-1),
  };
  expect((await removalsSince(from)).sort((a, b) => a.flowbox_id.localeCompare(b.flowbox_id))).toEqual(
    [devices.paired.id, devices.pairing.id]
      .sort()
      .map((id) => ({ type: 'flowbox_removed', flowbox_id: id, ...place })),
  );
}

const closed = (device: TestDevice) =>
  new Promise<void>((resolve) => {
    if (device.client.disconnected) resolve();
    else device.client.once('close', () => resolve());
  });

/** What a deletion must do to the devices below it, whichever level was deleted. */
async function expectCutOff(devices: Awaited<ReturnType<typeof devicesIn>>, remove: () => Promise<number>) {
  const { paired, pairing } = devices;
  const bothClosed = Promise.all([closed(paired.device), closed(pairing.device)]);
  expect(await remove()).toBe(204);
  await bothClosed;
  await expect(
    TestDevice.connect(url, paired.serial, { username: paired.serial, password: paired.password }),
  ).rejects.toThrow();
  await expect(TestDevice.bootstrap(url, pairing.serial, pairing.secret)).rejects.toThrow();
  const credentials = await t.db
    .select()
    .from(flowboxCredentials)
    .where(eq(flowboxCredentials.serial, paired.serial));
  expect(credentials.length).toBeGreaterThan(0);
  expect(credentials.every((c) => c.revokedAt !== null)).toBe(true);
}

const detachedLines = async (serial: string) =>
  (await t.db.select().from(events).where(eq(events.objectLabel, serial))).filter(
    (e) => e.actionName === 'detached',
  );

describe('deleting what holds flowboxes', () => {
  it('a zone: its devices are disconnected, their credentials revoked, the log says why, and open screens are told', async () => {
    const p = await place();
    const devices = await devicesIn(p.zone);
    const zoneName = (await cmA.get(`${p.zone}/info`)).json().name as string;
    const from = removals.length;
    await expectCutOff(
      devices,
      async () => (await cmA.delete(`${p.zone}/delete`, { confirm_name: zoneName })).statusCode,
    );
    await expectRemovalsAnnounced(from, devices, {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      zone: p.zone,
    });
    const [line] = await detachedLines(devices.paired.serial);
    expect(line).toMatchObject({
      objectName: 'flowbox',
      objectId: devices.paired.id,
      userName: 'Cara Amanager',
      origin: 'web',
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      changedFields: ['zone_deleted'],
    });
    expect(await detachedLines(devices.pairing.serial)).toHaveLength(1);
  });

  it('a building: every zone below it loses its devices', async () => {
    const p = await place();
    const second = `${p.building}/zones/${(await cmA.post(`${p.building}/zones/create`, zoneBody({ name: 'Second' }))).json().id}`;
    await subscribe(t, second.split('/').at(-1)!);
    const first = await devicesIn(p.zone);
    const other = await devicesIn(second);
    const name = (await cmA.get(`${p.building}/info`)).json().name as string;
    const otherClosed = Promise.all([closed(other.paired.device), closed(other.pairing.device)]);
    await expectCutOff(
      first,
      async () => (await cmA.delete(`${p.building}/delete`, { confirm_name: name })).statusCode,
    );
    await otherClosed;
    expect((await detachedLines(other.paired.serial))[0]?.changedFields).toEqual(['building_deleted']);
  });

  it('a site: its buildings and their devices go', async () => {
    const site = (
      await cmA.post(`/v1/customers/${w.customers.a.id}/sites/create`, { name: 'Doomed site' })
    ).json().id as string;
    const p = await place(w.customers.a.id, site);
    const devices = await devicesIn(p.zone);
    await expectCutOff(
      devices,
      async () => (await cmA.delete(`${p.site}/delete`, { confirm_name: 'Doomed site' })).statusCode,
    );
    expect((await detachedLines(devices.paired.serial))[0]?.changedFields).toEqual(['site_deleted']);
  });

  it("a customer: its devices go, open screens are told, and the lines stay in the provider's log", async () => {
    const customer = (await provider.post('/v1/customers/create', { name: 'Doomed customer' })).json()
      .id as string;
    const site = (await provider.post(`/v1/customers/${customer}/sites/create`, { name: 'Only site' })).json()
      .id as string;
    const p = await place(customer, site, provider);
    const devices = await devicesIn(p.zone, provider);
    const from = removals.length;
    await expectCutOff(
      devices,
      async () =>
        (await provider.delete(`${p.customer}/delete`, { confirm_name: 'Doomed customer' })).statusCode,
    );
    // The messages name the customer that was, so the provider's open screens drop its flowboxes.
    await expectRemovalsAnnounced(from, devices, { customerId: customer, siteId: site, zone: p.zone });
    expect(await detachedLines(devices.paired.serial)).toEqual([
      expect.objectContaining({
        customerId: null,
        changedFields: ['customer_deleted'],
        userName: expect.any(String),
      }),
    ]);
  });

  it('a deletion refused (wrong name) leaves the devices connected, and announces nothing', async () => {
    const p = await place();
    const devices = await devicesIn(p.zone);
    const from = removals.length;
    expect((await cmA.delete(`${p.zone}/delete`, { confirm_name: 'not it' })).statusCode).toBe(400);
    expect(await removalsSince(from)).toEqual([]);
    expect(devices.paired.device.client.connected).toBe(true);
    await devices.paired.device.publish('presence', { v: 1, at: new Date().toISOString(), status: 'online' });
    await devices.paired.device.end();
    await devices.pairing.device.end();
  });

  it('a deletion rolled back after its flowboxes were retired announces nothing and revokes nothing', async () => {
    const p = await place();
    const devices = await devicesIn(p.zone);
    const zoneId = p.zone.split('/').at(-1)!;
    const zoneName = (await cmA.get(`${p.zone}/info`)).json().name as string;
    // The zone's own DELETE fails, after retireFlowboxesUnder ran in the same transaction.
    await t.db.execute(sql`CREATE FUNCTION refuse_zone_delete() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'zone delete refused by the test'; END $$`);
    await t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_zone_delete BEFORE DELETE ON zones FOR EACH ROW
        WHEN (OLD.id = '${zoneId}') EXECUTE FUNCTION refuse_zone_delete()`),
    );
    const from = removals.length;
    try {
      expect((await cmA.delete(`${p.zone}/delete`, { confirm_name: zoneName })).statusCode).toBe(500);
    } finally {
      await t.db.execute(sql`DROP TRIGGER refuse_zone_delete ON zones`);
      await t.db.execute(sql`DROP FUNCTION refuse_zone_delete()`);
    }
    expect(await removalsSince(from)).toEqual([]);
    expect(await detachedLines(devices.paired.serial)).toEqual([]);
    const credentials = await t.db
      .select()
      .from(flowboxCredentials)
      .where(eq(flowboxCredentials.serial, devices.paired.serial));
    expect(credentials.some((c) => c.revokedAt === null)).toBe(true);
    expect(devices.paired.device.client.connected).toBe(true);
    expect(devices.pairing.device.client.connected).toBe(true);
    await devices.paired.device.end();
    await devices.pairing.device.end();
  });
});
