import { PAIRING_REQUEST_RETRY_S, PROTOCOL_VERSION, type PairingRequest } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, deviceCommands, events, flowboxCredentials, flowboxes, zones } from '../db/schema.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
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
import {
  deviceState,
  newSecret,
  startMessaging,
  subscribe,
  TestDevice,
  uniqueSerial,
  until,
} from './testing.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { DeviceLink } from '../devices/index.ts';
import { findFlowboxById } from './flowboxes.repo.ts';
import { FlowboxesService } from './flowboxes.service.ts';

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let url: string;
let zone: string;
let zoneId: string;

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

const eventsOf = async (flowboxId: string) =>
  (await t.db.select().from(events).where(eq(events.objectId, flowboxId))).map((e) => ({
    action: e.actionName,
    origin: e.origin,
    user: e.userName,
  }));

/** Steps 1 and 2: a prepared flowbox whose device announced itself, connected in pairing mode. */
async function announced(fields: { model?: string; water_temperature?: string } = {}) {
  const serial = uniqueSerial();
  const factorySecret = newSecret();
  const prepared = await smA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: factorySecret });
  expect(prepared.statusCode, prepared.body).toBe(201);
  const device = await TestDevice.bootstrap(url, serial, factorySecret);
  await device.subscribe('pairing/response');
  const answer = await device.requestPairing(fields);
  expect(answer.result).toBe('pending');
  return {
    serial,
    factorySecret,
    device,
    id: prepared.json().id as string,
    path: `${zone}/flowboxes/${prepared.json().id}`,
  };
}

/** All three steps, then the device signs in with its own credentials. */
async function paired() {
  const a = await announced();
  const seen = a.device.received.length;
  expect((await cmA.post(`${a.path}/validate`)).statusCode).toBe(200);
  const accepted = (await a.device.next('pairing/response', seen)).message;
  expect(accepted).toMatchObject({ result: 'accepted', username: a.serial });
  await a.device.end();
  const device = await TestDevice.connect(
    url,
    a.serial,
    { username: a.serial, password: String(accepted.password) },
    { will: true },
  );
  await device.subscribe('commands');
  return { ...a, device, password: String(accepted.password) };
}

describe('pairing (spec §4: init 1/3, pending 2/3, ready 3/3)', () => {
  it('prepares a pairing in step 1/3, once per serial', async () => {
    const serial = uniqueSerial();
    const res = await smA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: newSecret() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      serial,
      zone_id: zoneId,
      pairing_state: 'init',
      pairing_step: 1,
      connection: 'never',
      connection_since: null,
    });
    const again = await cmA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: newSecret() });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('errors.flowbox_already_paired');
    expect(await eventsOf(res.json().id)).toEqual([
      { action: 'pairing_prepared', origin: 'web', user: 'Sam Asite' },
    ]);
    const list = (await smA.get(`${zone}/flowboxes/list`)).json().items as { serial: string }[];
    expect(list.map((f) => f.serial)).toContain(serial);
  });

  it('refuses to pair in a zone without a subscription (spec §5), in EN and FR', async () => {
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    const building = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Bare' }))).json()
      .id as string;
    const bare = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json()
      .id as string;
    const path = `${site}/buildings/${building}/zones/${bare}/flowboxes/pair`;
    const body = { serial: uniqueSerial(), factory_secret: newSecret() };
    const en = await cmA.post(path, body);
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      code: 'errors.zone_without_subscription',
      message: 'This zone has no subscription: choose one before pairing a flowbox',
    });
    const fr = await (await loginAs(t.app, 'cm.a@test.io', 'fr')).post(path, body);
    expect(fr.json().message).toBe(
      "Cette zone n'a pas d'abonnement : choisissez-en un avant d'appairer un flowbox",
    );
  });

  it('moves to pending (2/3) when the device, signed in with its factory secret, announces itself', async () => {
    const a = await announced();
    const info = (await smA.get(`${a.path}/info`)).json();
    expect(info).toMatchObject({
      pairing_state: 'pending',
      pairing_step: 2,
      model: 'one_inch_v1',
      water_temperature: 'cold',
      firmware_version: '2.4.0',
    });
    expect(await eventsOf(a.id)).toContainEqual({
      action: 'pairing_announced',
      origin: 'device',
      user: null,
    });
    await a.device.end();
  });

  it('answers not_prepared to a request for a serial nobody prepared, and refuses a wrong factory secret', async () => {
    const a = await announced();
    await a.device.end();
    const before = messaging.brokerCounters!.refused_wrong_secret;
    await expect(TestDevice.bootstrap(url, a.serial, newSecret())).rejects.toThrow();
    expect(messaging.brokerCounters!.refused_wrong_secret).toBe(before + 1);
    const unknown = messaging.brokerCounters!.refused_unknown_serial;
    await expect(TestDevice.bootstrap(url, uniqueSerial(), newSecret())).rejects.toThrow();
    expect(messaging.brokerCounters!.refused_unknown_serial).toBe(unknown + 1);
  });

  it('gives the spec §8 model and water-temperature mismatch errors at validation, and changes nothing', async () => {
    const model = await announced({ model: 'two_inches_v1' });
    const res = await cmA.post(`${model.path}/validate`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'errors.flowbox_model_mismatch',
      message: "The device model does not match the zone's flowbox model",
    });
    const water = await announced({ water_temperature: 'hot' });
    const fr = await (await loginAs(t.app, 'cm.a@test.io', 'fr')).post(`${water.path}/validate`);
    expect(fr.json()).toMatchObject({
      code: 'errors.water_temperature_mismatch',
      message: "La température de l'eau de la zone ne correspond pas à celle de l'appareil",
    });
    expect((await cmA.get(`${water.path}/info`)).json().pairing_state).toBe('pending');
    await Promise.all([model.device.end(), water.device.end()]);
  });

  it('finalises (3/3): the device gets its own credentials once, only their hash is kept', async () => {
    const p = await paired();
    const info = (await smA.get(`${p.path}/info`)).json();
    expect(info).toMatchObject({ pairing_state: 'ready', pairing_step: 3 });
    expect(info.paired_at).not.toBeNull();
    const [credential] = await t.db
      .select()
      .from(flowboxCredentials)
      .where(eq(flowboxCredentials.serial, p.serial));
    expect(credential!.secretHash).not.toContain(p.password);
    expect(credential!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await eventsOf(p.id)).toContainEqual({
      action: 'pairing_validated',
      origin: 'web',
      user: 'Cara Amanager',
    });
    await p.device.end();
  });

  it('refuses a pairing: the device is told, the flowbox is gone', async () => {
    const a = await announced();
    const seen = a.device.received.length;
    expect((await cmA.post(`${a.path}/refuse`)).statusCode).toBe(204);
    const answer = (await a.device.next('pairing/response', seen)).message;
    expect(answer).toMatchObject({ result: 'refused', reason: 'refused_by_operator' });
    expect((await cmA.get(`${a.path}/info`)).statusCode).toBe(404);
    expect(await eventsOf(a.id)).toContainEqual({
      action: 'pairing_refused',
      origin: 'web',
      user: 'Cara Amanager',
    });
    await a.device.end().catch(() => undefined);
  });

  it('refuses the decisions that do not fit the pairing step', async () => {
    const a = await announced();
    expect((await cmA.post(`${a.path}/unpair`)).json().code).toBe('errors.pairing_step');
    await cmA.post(`${a.path}/validate`);
    expect((await cmA.post(`${a.path}/validate`)).json().code).toBe('errors.pairing_step');
    expect((await cmA.post(`${a.path}/refuse`)).json().code).toBe('errors.pairing_step');
    await a.device.end();
  });

  it('unpairs: the credentials are revoked, the connection closed, and a new sign-in refused', async () => {
    const p = await paired();
    const closed = new Promise<void>((resolve) => p.device.client.once('close', () => resolve()));
    expect((await cmA.post(`${p.path}/unpair`)).statusCode).toBe(204);
    await closed;
    await expect(
      TestDevice.connect(url, p.serial, { username: p.serial, password: p.password }),
    ).rejects.toThrow();
    const live = await t.db
      .select()
      .from(flowboxCredentials)
      .where(and(eq(flowboxCredentials.serial, p.serial)));
    expect(live.every((c) => c.revokedAt !== null)).toBe(true);
    expect(await eventsOf(p.id)).toContainEqual({ action: 'unpaired', origin: 'web', user: 'Cara Amanager' });
  });

  it('detaches only when the serial is typed (spec §4 confirmation)', async () => {
    const p = await paired();
    const wrong = await cmA.delete(`${p.path}/detach`, { confirm_name: 'not it' });
    expect(wrong.json()).toMatchObject({ code: 'errors.names_mismatch', message: "Both names don't match" });
    expect((await cmA.delete(`${p.path}/detach`, { confirm_name: ` ${p.serial} ` })).statusCode).toBe(204);
    expect(await eventsOf(p.id)).toContainEqual({ action: 'detached', origin: 'web', user: 'Cara Amanager' });
    await p.device.end().catch(() => undefined);
  });

  it('needs the flowboxes.pair permission to pair, and valves.control to command', async () => {
    const noPair = await siteManagerWithout(t, w, 'sm.nopair@test.io', 'flowboxes.pair');
    const res = await noPair.post(`${zone}/flowboxes/pair`, {
      serial: uniqueSerial(),
      factory_secret: newSecret(),
    });
    expect(res.statusCode).toBe(403);
    const p = await paired();
    const noValves = await siteManagerWithout(t, w, 'sm.novalves@test.io', 'valves.control');
    expect((await noValves.post(`${p.path}/commands/send`, { name: 'valve_close' })).statusCode).toBe(403);
    expect((await noValves.get(`${p.path}/info`)).statusCode).toBe(200);
    await p.device.end();
  });
});

describe('a paired device on the embedded broker', () => {
  it('may use only its own topics: a foreign publish or subscription is refused and counted', async () => {
    const p = await paired();
    const other = await paired();
    const subscribeRefusals = messaging.brokerCounters!.refused_subscribe;
    // A refused subscription comes back with the 0x80 failure code, which mqtt.js reports as an error.
    await expect(p.device.subscribe('telemetry')).rejects.toThrow();
    await expect(
      p.device.client.subscribeAsync(`flowbox/${other.serial}/commands`, { qos: 1 }),
    ).rejects.toThrow();
    expect(messaging.brokerCounters!.refused_subscribe).toBe(subscribeRefusals + 2);
    const publishRefusals = messaging.brokerCounters!.refused_publish;
    const closed = new Promise<void>((resolve) => p.device.client.once('close', () => resolve()));
    p.device.client.publish(`flowbox/${other.serial}/state`, JSON.stringify(deviceState()), { qos: 1 });
    await closed;
    expect(messaging.brokerCounters!.refused_publish).toBe(publishRefusals + 1);
    expect((await cmA.get(`${other.path}/info`)).json().valve).toBeNull();
    await Promise.all([p.device.end(), other.device.end()]);
  });

  it('reports its state: the flowbox and its zone show it, and the connection becomes connected', async () => {
    const p = await paired();
    await p.device.publish('state', deviceState({ valve: 'closed', maintenance_mode: true }));
    const info = await until(async () => {
      const body = (await smA.get(`${p.path}/info`)).json();
      return body.valve === 'closed' ? body : undefined;
    });
    expect(info).toMatchObject({
      connection: 'connected',
      maintenance_mode: true,
      temperature: 18.5,
      humidity: 54,
      network_interface: 'wifi',
      network_address: '10.0.0.12',
      network_gateway: '10.0.0.1',
      wifi_ssid: 'site-wifi',
      esp_version: '5.1.2',
      board_version: 'B3',
    });
    const [row] = await t.db.select().from(zones).where(eq(zones.id, zoneId));
    expect(row).toMatchObject({ valveState: 'closed', maintenanceMode: true });
    await p.device.publish('state', deviceState());
    await until(async () => (await smA.get(`${p.path}/info`)).json().valve === 'opened');
    await p.device.end();
  });

  it('stores an event once however often QoS 1 redelivers it, with origin device', async () => {
    const p = await paired();
    const event = {
      v: PROTOCOL_VERSION,
      seq: 1,
      at: new Date().toISOString(),
      type: 'valve_operated_by_hand',
      valve: 'closed',
    };
    const duplicates = messaging.ingest.counters.duplicates;
    await p.device.publish('events', event);
    await p.device.publish('events', event);
    await until(() => messaging.ingest.counters.duplicates === duplicates + 1);
    const logged = (await eventsOf(p.id)).filter((e) => e.action === 'valve_closed');
    expect(logged).toEqual([{ action: 'valve_closed', origin: 'device', user: null }]);
    await p.device.end();
  });

  it('drops and counts malformed, oversized and schema-violating messages, and keeps going', async () => {
    const p = await paired();
    const dropped = { ...messaging.ingest.counters.dropped };
    await p.device.publish('state', 'not json {');
    await p.device.publish('state', JSON.stringify({ ...deviceState(), padding: 'x'.repeat(5000) }));
    await p.device.publish('state', { ...deviceState(), valve: 'half-open' });
    await p.device.publish('state', { ...deviceState(), v: 99 });
    const counters = messaging.ingest.counters.dropped;
    await until(
      () =>
        counters.not_json === dropped.not_json + 1 &&
        counters.too_large === dropped.too_large + 1 &&
        counters.invalid_schema === dropped.invalid_schema + 1 &&
        counters.unsupported_version === dropped.unsupported_version + 1,
    );
    await p.device.publish('state', deviceState({ valve: 'closed' }));
    await until(async () => (await cmA.get(`${p.path}/info`)).json().valve === 'closed');
    const metrics = (await loginAs(t.app, 'provider@test.io')).get('/v1/metrics');
    expect((await metrics).json().ingest.dropped.not_json).toBeGreaterThanOrEqual(1);
    expect((await cmA.get('/v1/metrics')).statusCode).toBe(403);
    await p.device.end();
  });

  it('is disconnected by its last will, and by three missed heartbeats', async () => {
    const p = await paired();
    await p.device.publish('presence', {
      v: PROTOCOL_VERSION,
      at: new Date().toISOString(),
      status: 'online',
    });
    await until(async () => (await cmA.get(`${p.path}/info`)).json().connection === 'connected');
    p.device.client.stream.destroy();
    const gone = await until(async () => {
      const body = (await cmA.get(`${p.path}/info`)).json();
      return body.connection === 'disconnected' ? body : undefined;
    });
    expect(gone.connection_since).not.toBeNull();

    const q = await paired();
    await q.device.publish('presence', {
      v: PROTOCOL_VERSION,
      at: new Date().toISOString(),
      status: 'online',
    });
    await until(async () => (await cmA.get(`${q.path}/info`)).json().connection === 'connected');
    t.clock.advance(181_000);
    await until(async () => (await cmA.get(`${q.path}/info`)).json().connection === 'disconnected');
    await q.device.end();
  });
});

describe('commands', () => {
  it('are published QoS 1, acknowledged, logged with who asked, and answered to the web', async () => {
    const p = await paired();
    const sent = await cmA.post(`${p.path}/commands/send`, { name: 'valve_close' });
    expect(sent.statusCode, sent.body).toBe(202);
    const commandId = sent.json().id as string;
    const command = (await p.device.next('commands')).message;
    expect(command).toMatchObject({ id: commandId, name: 'close_valve', params: {} });
    await p.device.publish('acks', {
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: new Date().toISOString(),
      result: 'done',
      reason: null,
    });
    const done = await until(async () => {
      const body = (await cmA.get(`${p.path}/commands/${commandId}/info`)).json();
      return body.status === 'done' ? body : undefined;
    });
    expect(done.completed_at).not.toBeNull();
    expect(await eventsOf(p.id)).toContainEqual({
      action: 'valve_closed',
      origin: 'web',
      user: 'Cara Amanager',
    });
    await p.device.end();
  });

  it('are re-sent until acknowledged, and expire when nobody answers', async () => {
    const p = await paired();
    const commandId = (await cmA.post(`${p.path}/commands/send`, { name: 'reboot' })).json().id as string;
    await p.device.next('commands');
    t.clock.advance(11_000);
    await until(() => p.device.received.filter((r) => r.topic.endsWith('/commands')).length >= 2);
    // The command's record counts the attempt in the pass that re-sent it, which may end after the
    // device heard it.
    const resent = await until(async () => {
      const body = (await cmA.get(`${p.path}/commands/${commandId}/info`)).json();
      return body.attempts >= 2 ? body : undefined;
    });
    expect(resent.attempts).toBeGreaterThanOrEqual(2);
    t.clock.advance(120_000);
    await until(
      async () => (await cmA.get(`${p.path}/commands/${commandId}/info`)).json().status === 'expired',
    );
    expect(await eventsOf(p.id)).toContainEqual({
      action: 'command_expired',
      origin: 'system',
      user: 'Cara Amanager',
    });
    await p.device.end();
  });

  it('record a refusal, and an autotest result with the user who asked', async () => {
    const p = await paired();
    const refusedId = (await cmA.post(`${p.path}/commands/send`, { name: 'maintenance_on' })).json()
      .id as string;
    await p.device.publish('acks', {
      v: PROTOCOL_VERSION,
      command_id: refusedId,
      at: new Date().toISOString(),
      result: 'refused',
      reason: 'busy',
    });
    await until(
      async () => (await cmA.get(`${p.path}/commands/${refusedId}/info`)).json().status === 'refused',
    );

    const autotestId = (await smA.post(`${p.path}/commands/send`, { name: 'autotest' })).json().id as string;
    const ack = { v: PROTOCOL_VERSION, command_id: autotestId, at: new Date().toISOString(), reason: null };
    await p.device.publish('acks', { ...ack, result: 'accepted' });
    await until(
      async () => (await smA.get(`${p.path}/commands/${autotestId}/info`)).json().status === 'acked',
    );
    await p.device.publish('events', {
      v: PROTOCOL_VERSION,
      seq: 1,
      at: new Date().toISOString(),
      type: 'autotest_result',
      command_id: autotestId,
      result: 'some_skipped',
      checks: [{ name: 'valve', result: 'skipped' }],
    });
    const finished = await until(async () => {
      const body = (await smA.get(`${p.path}/commands/${autotestId}/info`)).json();
      return body.status === 'done' ? body : undefined;
    });
    expect(finished.result).toMatchObject({ result: 'some_skipped' });
    const log = await eventsOf(p.id);
    expect(log).toContainEqual({ action: 'command_refused', origin: 'web', user: 'Cara Amanager' });
    expect(log).toContainEqual({ action: 'autotest_some_skipped', origin: 'web', user: 'Sam Asite' });
    await p.device.end();
  });

  it("withdrawn by a user's action are logged as that user's, origin web; withdrawn otherwise, as the system's; neither alerts", async () => {
    const [row] = await t.db
      .insert(flowboxes)
      .values({ serial: uniqueSerial(), zoneId, pairingState: 'ready' })
      .returning();
    const located = (await findFlowboxById(t.db, row!.id))!;
    const now = t.clock.now();
    const expiresAt = new Date(now.getTime() + 120_000);
    await t.db.transaction(async (tx) => {
      await t.services.commands.queueSystem(tx, located, 'valve_close', now, expiresAt);
      await t.services.commands.queueSystem(tx, located, 'valve_open', now, expiresAt);
    });
    const queued = await t.db.select().from(deviceCommands).where(eq(deviceCommands.flowboxId, row!.id));
    const idOf = (name: string) => queued.find((c) => c.name === name)!.id;
    const alertsBefore = (await t.db.select().from(alerts).where(eq(alerts.zoneId, zoneId))).length;
    const cara = { id: w.users.cmA.id, name: 'Cara Amanager' };
    await t.db.transaction((tx) =>
      t.services.commands.withdraw(tx, [idOf('valve_close')], 'automatic_closing_exited', now, cara),
    );
    await t.db.transaction((tx) => t.services.commands.withdraw(tx, [idOf('valve_open')], 'superseded', now));
    const lines = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, row!.id), eq(events.actionName, 'command_expired')));
    expect(
      lines.map((e) => ({ fields: e.changedFields, origin: e.origin, id: e.userId, name: e.userName })),
    ).toEqual(
      expect.arrayContaining([
        { fields: ['valve_close', 'automatic_closing_exited'], origin: 'web', id: cara.id, name: cara.name },
        { fields: ['valve_open', 'superseded'], origin: 'system', id: null, name: null },
      ]),
    );
    expect(lines).toHaveLength(2);
    const statuses = await t.db.select().from(deviceCommands).where(eq(deviceCommands.flowboxId, row!.id));
    expect(statuses.map((c) => c.status)).toEqual(['expired', 'expired']);
    expect((await t.db.select().from(alerts).where(eq(alerts.zoneId, zoneId))).length).toBe(alertsBefore);
  });

  it('refuse a second valve command while one is on its way to the flowbox (409, EN and FR); modes are not held back', async () => {
    const p = await paired();
    const first = await cmA.post(`${p.path}/commands/send`, { name: 'valve_close' });
    expect(first.statusCode, first.body).toBe(202);
    const firstId = first.json().id as string;
    await p.device.next('commands');
    const second = await smA.post(`${p.path}/commands/send`, { name: 'valve_open' });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('errors.valve_command_pending');
    expect(second.json().message).toMatch(/valve command is already on its way/);
    const fr = await cmA.request(
      'POST',
      `${p.path}/commands/send`,
      { name: 'valve_close' },
      { 'accept-language': 'fr' },
    );
    expect(fr.statusCode).toBe(409);
    expect(fr.json().message).toMatch(/commande de vanne est déjà en cours/);
    // Another kind of command is not a valve command: it goes.
    expect((await cmA.post(`${p.path}/commands/send`, { name: 'maintenance_on' })).statusCode).toBe(202);
    await p.device.publish('acks', {
      v: PROTOCOL_VERSION,
      command_id: firstId,
      at: new Date().toISOString(),
      result: 'done',
      reason: null,
    });
    await until(async () => (await cmA.get(`${p.path}/commands/${firstId}/info`)).json().status === 'done');
    expect((await smA.post(`${p.path}/commands/send`, { name: 'valve_open' })).statusCode).toBe(202);
    await p.device.end();
  });

  it('let only one of two valve commands sent at once through', async () => {
    const p = await paired();
    const answers = await Promise.all([
      cmA.post(`${p.path}/commands/send`, { name: 'valve_close' }),
      smA.post(`${p.path}/commands/send`, { name: 'valve_open' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 409]);
    await p.device.end();
  });

  it('let a valve command go once the one before it expired unanswered', async () => {
    const p = await paired();
    const first = (await cmA.post(`${p.path}/commands/send`, { name: 'valve_close' })).json().id as string;
    t.clock.advance(121_000);
    await t.services.commands.dispatchDue();
    expect((await cmA.get(`${p.path}/commands/${first}/info`)).json().status).toBe('expired');
    expect((await cmA.post(`${p.path}/commands/send`, { name: 'valve_close' })).statusCode).toBe(202);
    await p.device.end();
  });

  it("cannot be sent by another customer's manager", async () => {
    const p = await paired();
    const cmB = await loginAs(t.app, 'cm.b@test.io');
    const res = await cmB.post(`${p.path}/commands/send`, { name: 'valve_open' });
    expect([403, 404]).toContain(res.statusCode);
    expect((await t.db.select().from(deviceCommands).where(eq(deviceCommands.flowboxId, p.id))).length).toBe(
      0,
    );
    await p.device.end();
  });

  it('go only to a paired flowbox, with a valid leak-detection timeout', async () => {
    const a = await announced();
    const res = await cmA.post(`${a.path}/commands/send`, { name: 'valve_open' });
    expect(res.json().code).toBe('errors.flowbox_not_ready');
    const bad = await cmA.post(`${a.path}/commands/send`, { name: 'leak_detection_on', timeout_minutes: 0 });
    expect(bad.statusCode).toBe(400);
    await a.device.end();
  });
});

describe('a server restart', () => {
  it('keeps the commands due: a new instance sends what the stopped one had not', async () => {
    const p = await paired();
    await messaging.close();
    await p.device.end();
    const sent = await cmA.post(`${p.path}/commands/send`, { name: 'valve_open' });
    expect(sent.json()).toMatchObject({ status: 'pending', attempts: 0 });
    messaging = await startMessaging(t);
    url = `mqtt://127.0.0.1:${messaging.port}`;
    const device = await TestDevice.connect(url, p.serial, { username: p.serial, password: p.password });
    await device.subscribe('commands');
    // Sent perhaps before the device subscribed: the next attempt reaches it.
    t.clock.advance(11_000);
    const command = (await device.next('commands')).message;
    expect(command).toMatchObject({ id: sent.json().id, name: 'open_valve' });
    await device.end();
  });
});

describe('the factory secret after pairing', () => {
  it('gets fresh credentials before the device ever signed in, and already_paired after', async () => {
    const a = await announced();
    await cmA.post(`${a.path}/validate`);
    const again = await a.device.requestPairing();
    expect(again).toMatchObject({ result: 'accepted', username: a.serial });
    await a.device.end();
    const device = await TestDevice.connect(url, a.serial, {
      username: a.serial,
      password: String((again as { password: string }).password),
    });
    await device.publish('presence', { v: PROTOCOL_VERSION, at: new Date().toISOString(), status: 'online' });
    await until(async () => (await cmA.get(`${a.path}/info`)).json().connection === 'connected');
    await device.end();
    const copy = await TestDevice.bootstrap(url, a.serial, a.factorySecret);
    await copy.subscribe('pairing/response');
    expect(await copy.requestPairing()).toMatchObject({ result: 'refused', reason: 'already_paired' });
    await copy.end();
  });
});

describe('a repeated pairing request crossing the answer', () => {
  it('is left unanswered within the retry period, so the secret on its way stays good; a later repeat gets a fresh one', async () => {
    const a = await announced();
    const seen = a.device.received.length;
    await cmA.post(`${a.path}/validate`);
    const first = (await a.device.next('pairing/response', seen)).message;
    expect(first).toMatchObject({ result: 'accepted' });
    const requestId = String(first.request_id);
    // The device's repeat, sent before the answer reached it, arrives after: no answer, no new secret.
    const before = a.device.received.length;
    await a.device.requestPairingAgain(requestId);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(a.device.received.slice(before).filter((r) => r.topic.endsWith('pairing/response'))).toEqual([]);
    // A device that really lost the answer repeats after the period, and gets a fresh secret.
    t.clock.advance(PAIRING_REQUEST_RETRY_S * 1000 + 1000);
    await a.device.requestPairingAgain(requestId);
    const fresh = (await a.device.next('pairing/response', before)).message;
    expect(fresh).toMatchObject({ result: 'accepted', request_id: requestId });
    expect(fresh.password).not.toBe(first.password);
    await a.device.end();
    const device = await TestDevice.connect(url, a.serial, {
      username: a.serial,
      password: String(fresh.password),
    });
    await device.end();
  });

  it('leaves the secret of the answer good: the device signs in with it', async () => {
    const a = await announced();
    const seen = a.device.received.length;
    await cmA.post(`${a.path}/validate`);
    const first = (await a.device.next('pairing/response', seen)).message;
    await a.device.requestPairingAgain(String(first.request_id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await a.device.end();
    // Signs in with the secret of the first answer: the crossing repeat replaced nothing.
    const device = await TestDevice.connect(url, a.serial, {
      username: a.serial,
      password: String(first.password),
    });
    await device.end();
  });
});

/**
 * The service with a database whose first transaction waits for `meanwhile`: what the operator (or
 * another device message) did between the service's read of the flowbox and its write.
 */
function serviceWithTransactionAfter(meanwhile: () => Promise<void>): FlowboxesService {
  const internals = t.services.flowboxes as unknown as { ctx: Context; link: DeviceLink };
  let waited = false;
  const db = new Proxy(internals.ctx.db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key === 'transaction' && !waited)
        return async (...args: Parameters<Db['transaction']>) => {
          waited = true;
          await meanwhile();
          return target.transaction(...args);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new FlowboxesService({ ...internals.ctx, db }, internals.link);
}

describe('a repeated announcement handled while the flowbox changes', () => {
  const repeat = async (serial: string, id: string): Promise<PairingRequest> => ({
    v: PROTOCOL_VERSION,
    request_id: (await findFlowboxById(t.db, id))!.flowbox.pairingRequestId!,
    serial,
    at: new Date().toISOString(),
    model: 'one_inch_v1',
    water_temperature: 'cold',
    versions: { esp: '1.0.0', board: '1.0', firmware: '3.7.1' },
  });

  it('leaves a flowbox validated meanwhile in step 3/3: the device it answered is not sent back to step 2, nor its readings dropped', async () => {
    const a = await announced();
    const request = await repeat(a.serial, a.id);
    const racing = serviceWithTransactionAfter(async () => {
      expect((await cmA.post(`${a.path}/validate`)).statusCode).toBe(200);
    });
    await racing.announce(a.serial, request);
    expect((await findFlowboxById(t.db, a.id))!.flowbox.pairingState).toBe('ready');
    expect((await cmA.get(`${a.path}/info`)).json()).toMatchObject({
      pairing_state: 'ready',
      pairing_step: 3,
    });
    await a.device.end();
  });

  it('writes nothing for a flowbox detached meanwhile, and ends without an error', async () => {
    const a = await announced();
    const request = await repeat(a.serial, a.id);
    const racing = serviceWithTransactionAfter(async () => {
      expect((await cmA.delete(`${a.path}/detach`, { confirm_name: a.serial })).statusCode).toBe(204);
    });
    // Decided again on what is there now: no flowbox, so not_prepared (the detach also closed the
    // device's connection, which does not hear it).
    await racing.announce(a.serial, request);
    expect(await findFlowboxById(t.db, a.id)).toBeUndefined();
    expect(await t.db.select().from(flowboxes).where(eq(flowboxes.serial, a.serial))).toEqual([]);
    await a.device.end();
  });
});

describe('the floor of a flowbox (spec §3 floor "paired flowbox")', () => {
  it("is a floor of the zone's building, or none", async () => {
    const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
    const building = zone.split('/zones/')[0]!;
    const floor = (await cmA.post(`${building}/floors/create`, { label: 'Basement' })).json().id as string;
    const other = (await cmA.post(`${site}/buildings/create`, buildingBody({ name: 'Other' }))).json()
      .id as string;
    const foreign = (await cmA.post(`${site}/buildings/${other}/floors/create`, { label: 'Roof' })).json()
      .id as string;
    const body = (floorId: string) => ({
      serial: uniqueSerial(),
      factory_secret: newSecret(),
      floor_id: floorId,
    });
    const refused = await cmA.post(`${zone}/flowboxes/pair`, body(foreign));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([{ path: 'floor_id', message: 'Please select an option' }]);
    const paired = await cmA.post(`${zone}/flowboxes/pair`, body(floor));
    expect(paired.json().floor_id).toBe(floor);
  });
});
