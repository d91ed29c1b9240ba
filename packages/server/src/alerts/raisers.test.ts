import { PROTOCOL_VERSION, type AlertCategory } from '@flowbox/shared';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, events, zones } from '../db/schema.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import {
  buildingBody,
  createWorldApp,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import {
  deviceState,
  newSecret,
  startMessaging,
  subscribe,
  TestDevice,
  uniqueSerial,
  until,
} from '../flowboxes/testing.ts';
import { sweepAlerts } from './raisers.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let url: string;
let zone: string;
let zoneId: string;
const TIMEOUT = 10 * 60_000;

beforeAll(async () => {
  ({ t, w, cmA, smA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  zoneId = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json().id as string;
  zone = `${site}/buildings/${building}/zones/${zoneId}`;
  await subscribe(t, zoneId);
  messaging = await startMessaging(t);
  url = `mqtt://127.0.0.1:${messaging.port}`;
});
afterAll(async () => {
  await messaging.close();
  await t.close();
});

/** A flowbox paired in the zone through the three steps, connected with its own credentials. */
async function paired() {
  const serial = uniqueSerial();
  const factorySecret = newSecret();
  const prepared = await smA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: factorySecret });
  const bootstrap = await TestDevice.bootstrap(url, serial, factorySecret);
  await bootstrap.subscribe('pairing/response');
  await bootstrap.requestPairing();
  const seen = bootstrap.received.length;
  const path = `${zone}/flowboxes/${prepared.json().id}`;
  expect((await cmA.post(`${path}/validate`)).statusCode).toBe(200);
  const accepted = (await bootstrap.next('pairing/response', seen)).message;
  await bootstrap.end();
  const device = await TestDevice.connect(url, serial, {
    username: serial,
    password: String(accepted.password),
  });
  await device.subscribe('commands');
  return { id: prepared.json().id as string, serial, device, path };
}

const sweep = () => sweepAlerts(t.services.context, { communicationTimeoutMs: TIMEOUT });
const activeAlert = async (category: AlertCategory, flowboxId?: string) => {
  const rows = await t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.zoneId, zoneId), eq(alerts.category, category)));
  return rows.find((r) => r.state !== 'resolved' && (!flowboxId || r.flowboxId === flowboxId));
};
const lastOf = async (category: AlertCategory, flowboxId: string) => {
  const rows = await t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.category, category), eq(alerts.flowboxId, flowboxId)));
  return rows.sort((a, b) => b.openedAt.getTime() - a.openedAt.getTime())[0];
};

describe('flowbox_communication', () => {
  it('opens when a paired flowbox stays silent past the timeout, and resolves itself when it reports again', async () => {
    const p = await paired();
    await p.device.publish('state', deviceState());
    await until(async () => (await smA.get(`${p.path}/info`)).json().connection === 'connected');
    await sweep();
    expect(await activeAlert('flowbox_communication', p.id)).toBeUndefined();
    t.clock.advance(TIMEOUT + 60_000);
    await sweep();
    await sweep(); // a second pass counts nothing: the silence is one cause, already told
    const opened = await activeAlert('flowbox_communication', p.id);
    expect(opened).toMatchObject({ state: 'open', count: 1, flowboxSerial: p.serial });
    await p.device.publish('state', deviceState());
    await until(async () => {
      await sweep();
      return (await lastOf('flowbox_communication', p.id))?.state === 'resolved';
    });
    const resolved = await lastOf('flowbox_communication', p.id);
    expect(resolved).toMatchObject({ resolvedAutomatically: true, resolvedBy: null });
    await p.device.end();
  });
});

describe('flowbox_dysfunction', () => {
  it('opens on a failed autotest and resolves itself when a later autotest passes', async () => {
    const p = await paired();
    const autotest = async (seq: number, result: 'failed' | 'all_succeeded') => {
      const id = (await smA.post(`${p.path}/commands/send`, { name: 'autotest' })).json().id as string;
      await p.device.publish('events', {
        v: PROTOCOL_VERSION,
        seq,
        at: new Date().toISOString(),
        type: 'autotest_result',
        command_id: id,
        result,
        checks: [{ name: 'valve', result: result === 'failed' ? 'failed' : 'succeeded' }],
      });
    };
    await autotest(1, 'failed');
    const opened = await until(() => activeAlert('flowbox_dysfunction', p.id));
    expect(opened).toMatchObject({ cause: `autotest_failed:${p.id}`, details: { autotest: 'failed' } });
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, opened.id), eq(events.actionName, 'alert_opened')));
    expect(logged).toHaveLength(1);
    await autotest(2, 'all_succeeded');
    await until(async () => (await lastOf('flowbox_dysfunction', p.id))?.state === 'resolved');
    await p.device.end();
  });

  it('opens when a valve command is not confirmed before it expires', async () => {
    const p = await paired();
    const sent = await smA.post(`${p.path}/commands/send`, { name: 'valve_close' });
    expect(sent.statusCode, sent.body).toBe(202);
    await p.device.next('commands');
    t.clock.advance(121_000);
    const opened = await until(() => activeAlert('flowbox_dysfunction', p.id));
    expect(opened).toMatchObject({ cause: `valve_unconfirmed:${p.id}`, details: { command: 'valve_close' } });
    await p.device.end();
  });
});

/** A device's climate readings, one a second after the last, no water: (temperature, humidity). */
function climateSender(device: TestDevice) {
  let seq = 0;
  return (temperature: number, humidity: number) =>
    device.publish('telemetry', {
      v: PROTOCOL_VERSION,
      seq: ++seq,
      at: new Date(t.clock.now().getTime() + seq * 1000).toISOString(),
      interval_s: 60,
      volume_l: 0,
      flow_s: 0,
      temperature_c: temperature,
      humidity_pct: humidity,
    });
}

/** The statuses a flowbox went through for one metric, oldest first (its activity-log lines). */
const statusChanges = async (
  flowboxId: string,
  action: 'temperature_status_changed' | 'humidity_status_changed',
) =>
  (
    await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, flowboxId), eq(events.actionName, action)))
  ).map((e) => e.changedFields[0]);

describe('flowbox_internal_status and monitoring', () => {
  it('moves the humidity status with hysteresis, logs each change, and raises then resolves the alert', async () => {
    const p = await paired();
    const send = climateSender(p.device);
    const reading = (humidity: number) => send(18, humidity);
    const changes = () => statusChanges(p.id, 'humidity_status_changed');
    await reading(92);
    await until(async () => (await changes()).length === 1);
    expect(await activeAlert('flowbox_internal_status', p.id)).toMatchObject({ cause: `humidity:${p.id}` });
    // Hovering just under the alert threshold (90, hysteresis 5): no change, no flapping.
    for (const h of [89, 91, 86, 90, 88]) await reading(h);
    await reading(70);
    await until(async () => (await changes()).length === 2);
    expect(await changes()).toEqual(['alert', 'normal']);
    await until(async () => (await lastOf('flowbox_internal_status', p.id))?.state === 'resolved');
    await p.device.end();
  });

  it('follows temperature and humidity of one flowbox apart: a cold-water zone freezing, then thawing while still humid', async () => {
    const p = await paired();
    const [before] = await t.db
      .select({ waterTemperature: zones.waterTemperature, serviceLevel: zones.serviceLevel })
      .from(zones)
      .where(eq(zones.id, zoneId));
    // Water temperature alerts are a premium service (alert category settings).
    await t.db
      .update(zones)
      .set({ waterTemperature: 'cold', serviceLevel: 'premium' })
      .where(eq(zones.id, zoneId));
    const reading = climateSender(p.device);
    const changes = (action: 'temperature_status_changed' | 'humidity_status_changed') =>
      statusChanges(p.id, action);
    await reading(2, 93);
    await until(async () => (await changes('temperature_status_changed')).length === 1);
    await until(async () => (await changes('humidity_status_changed')).length === 1);
    expect(await activeAlert('water_temperature', p.id)).toMatchObject({ cause: `temperature:${p.id}` });
    // Both statuses are stored now; the next batches read each one back for its own metric.
    await reading(12, 94);
    await until(async () => (await changes('temperature_status_changed')).length === 2);
    await reading(12, 95);
    expect(await changes('temperature_status_changed')).toEqual(['alert', 'normal']);
    expect(await changes('humidity_status_changed')).toEqual(['alert']);
    await until(async () => (await lastOf('water_temperature', p.id))?.state === 'resolved');
    expect(await activeAlert('flowbox_internal_status', p.id)).toMatchObject({ cause: `humidity:${p.id}` });
    await t.db.update(zones).set(before!).where(eq(zones.id, zoneId));
    await p.device.end();
  });

  it('opens a flowbox_internal_status alert on a reboot by crash, not on one asked for', async () => {
    const p = await paired();
    await p.device.publish('events', {
      v: PROTOCOL_VERSION,
      seq: 1,
      at: new Date().toISOString(),
      type: 'reboot',
      reason: 'button',
    });
    await p.device.publish('events', {
      v: PROTOCOL_VERSION,
      seq: 2,
      at: new Date().toISOString(),
      type: 'reboot',
      reason: 'crash',
    });
    const opened = await until(() => activeAlert('flowbox_internal_status', p.id));
    expect(opened).toMatchObject({ cause: `reboot_fault:${p.id}`, details: { reboot: 'crash' }, count: 1 });
    await p.device.end();
  });
});

describe('maintenance', () => {
  it('opens while the zone is in maintenance mode and resolves itself when it ends', async () => {
    await t.db.update(zones).set({ maintenanceMode: true }).where(eq(zones.id, zoneId));
    await sweep();
    expect(await activeAlert('maintenance')).toMatchObject({ cause: 'maintenance' });
    await t.db.update(zones).set({ maintenanceMode: false }).where(eq(zones.id, zoneId));
    await sweep();
    expect(await activeAlert('maintenance')).toBeUndefined();
    const all = await t.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.cause, 'maintenance'), ne(alerts.state, 'open')));
    expect(all[0]).toMatchObject({ state: 'resolved', resolvedAutomatically: true });
  });
});
