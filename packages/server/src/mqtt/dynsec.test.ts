import { randomBytes } from 'node:crypto';
import { deviceTopic, PROTOCOL_VERSION } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowboxes } from '../db/schema.ts';
import {
  deviceState,
  newSecret,
  pairThroughBroker,
  startMessaging,
  subscribe,
  TestDevice,
  uniqueSerial,
  until,
} from '../flowboxes/testing.ts';
import { buildingBody, createWorldApp, zoneBody, type ApiClient, type TestApp } from '../test/harness.ts';
import { DynsecDeviceAccounts, roleOf } from './device-accounts.ts';
import { DynsecControl } from './dynsec.ts';
import type { DeviceMessaging } from './messaging.ts';
import { dynsecPlugin, startTestMosquitto, type TestMosquitto } from './mosquitto.testing.ts';

/*
 * Device accounts on a real Mosquitto with its dynamic-security plugin (docs/protocol.md "External
 * brokers: Mosquitto"): the server, given the admin account, creates each device's account when its
 * pairing is prepared and validated, and deletes it when the pairing ends; reconciliation removes
 * what a broker outage left behind. The test starts its own Mosquitto (never the machine's).
 */
const installed = dynsecPlugin() !== null;
const runs = installed || process.env.CI === 'true';
if (!runs)
  console.warn(
    'dynsec.test.ts skipped: Mosquitto with dynamic security is not installed (apt-get install mosquitto); CI runs it',
  );

let broker: TestMosquitto | undefined;
let t: TestApp;
let cmA: ApiClient;
let messaging: DeviceMessaging;
let zone: string;

/** The accounts the broker holds now, as `mosquitto_ctrl dynsec listClients` would show them. */
async function brokerClients(): Promise<string[]> {
  const [answer] = await broker!.control([{ command: 'listClients', verbose: false, count: -1, offset: 0 }]);
  return (answer!.data as { clients: string[] }).clients;
}

const accounts = () => t.services.deviceLink.counters!.accounts!;

beforeAll(async () => {
  if (!runs) return;
  broker = await startTestMosquitto();
  let w;
  ({ t, w, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const created = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json();
  zone = `${site}/buildings/${building}/zones/${created.id}`;
  await subscribe(t, created.id as string);
  messaging = await startMessaging(t, broker.serverUrl, `dynsec-${randomBytes(4).toString('hex')}`, {
    dynsec: broker.admin,
    accountsReconcileMs: 3_600_000,
  });
  // The first reconciliation runs once the admin connection is up.
  await until(() => accounts().reconcile_passes >= 1, 20_000);
}, 120_000);
afterAll(async () => {
  try {
    await messaging?.close();
    await t?.close();
  } finally {
    await broker?.close();
  }
});

/** Prepares, runs the bootstrap handshake and validates; the device signs in with its own secret. */
const paired = () => pairThroughBroker(cmA, zone, { bootstrapUrl: broker!.url, prefix: 'FBD' });

/** A connection with a chosen client id, as a device impersonating another would open it. */
const signIn = (username: string, password: string, clientId: string, clean = true) =>
  mqtt.connectAsync(broker!.url, {
    username,
    password,
    clientId,
    clean,
    reconnectPeriod: 0,
    connectTimeout: 3000,
  });

/**
 * The victim's own commands, in a persistent session, and every close it sees. Listening before the
 * CONNACK: a queued command comes right behind it.
 */
async function victimOnline(serial: string, password: string) {
  const client = mqtt.connect(broker!.url, {
    username: serial,
    password,
    clientId: serial,
    clean: false,
    reconnectPeriod: 0,
    connectTimeout: 3000,
  });
  const closes: string[] = [];
  const commands: string[] = [];
  client.on('message', (_topic, payload) => commands.push(payload.toString('utf8')));
  await new Promise((resolve, reject) => client.once('connect', resolve).once('error', reject));
  client.on('close', () => closes.push('close'));
  await client.subscribeAsync(deviceTopic(serial, 'commands'), { qos: 1 });
  return { client, closes, commands };
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const closed = (device: TestDevice) =>
  new Promise<void>((resolve) => {
    if (device.client.disconnected) resolve();
    else device.client.once('close', () => resolve());
  });

describe.skipIf(!runs)('device accounts on Mosquitto with dynamic security', () => {
  it('are made at pairing with their own role: the device publishes and subscribes only its own topics', async () => {
    const p = await paired();
    expect(await brokerClients()).toEqual(expect.arrayContaining([p.serial, `bootstrap.${p.serial}`]));
    const [role] = await broker!.control([{ command: 'getRole', rolename: roleOf(p.serial) }]);
    const acls = (role!.data as { role: { acls: { acltype: string; topic: string }[] } }).role.acls;
    expect(acls.map((a) => `${a.acltype} ${a.topic}`).sort()).toEqual(
      [
        ...['telemetry', 'state', 'events', 'acks', 'presence', 'pairing/request'].map(
          (k) => `publishClientSend flowbox/${p.serial}/${k}`,
        ),
        `subscribeLiteral flowbox/${p.serial}/commands`,
        `subscribeLiteral flowbox/${p.serial}/pairing/response`,
        `subscribeLiteral flowbox/${p.serial}/confirm`,
      ].sort(),
    );

    // Its own topics work: the state reaches the server, and commands reach the device.
    expect(await p.device.subscribe('commands')).toBe(1);
    await p.device.publish('state', deviceState({ valve: 'closed' }));
    await until(async () => (await cmA.get(`${p.path}/info`)).json().valve === 'closed');

    // Another device's topics and wildcards do not: a spy sees the foreign publish never arrive.
    const other = uniqueSerial('FBD');
    const spy = await mqtt.connectAsync(broker!.url, { ...broker!.admin, reconnectPeriod: 0 });
    const seen: string[] = [];
    spy.on('message', (topic) => seen.push(topic));
    await spy.subscribeAsync([deviceTopic(other, 'state'), deviceTopic(p.serial, 'events')], { qos: 1 });
    await p.device.publish('state', deviceState(), deviceTopic(other, 'state'));
    await p.device.publish('events', {
      v: PROTOCOL_VERSION,
      seq: 1,
      at: new Date().toISOString(),
      type: 'leak_detection_timeout',
    });
    await until(() => seen.includes(deviceTopic(p.serial, 'events')));
    expect(seen).not.toContain(deviceTopic(other, 'state'));
    await spy.endAsync();
    await expect(p.device.client.subscribeAsync(`flowbox/${p.serial}/#`, { qos: 1 })).rejects.toThrow();
    await expect(
      p.device.client.subscribeAsync(deviceTopic(other, 'commands'), { qos: 1 }),
    ).rejects.toThrow();
    await p.device.end();
  });

  it('refuse a wrong secret, for a paired device and in pairing mode', async () => {
    const p = await paired();
    await expect(
      TestDevice.connect(broker!.url, p.serial, { username: p.serial, password: newSecret() }),
    ).rejects.toThrow(/Not authorized/);
    await expect(TestDevice.bootstrap(broker!.url, p.serial, newSecret())).rejects.toThrow(/Not authorized/);
    await p.device.end();
  });

  it('go at unpairing: the device is disconnected at once and refused after', async () => {
    const p = await paired();
    const cutOff = closed(p.device);
    expect((await cmA.post(`${p.path}/unpair`)).statusCode).toBe(204);
    await cutOff;
    await expect(
      TestDevice.connect(broker!.url, p.serial, { username: p.serial, password: p.password }),
    ).rejects.toThrow(/Not authorized/);
    await expect(TestDevice.bootstrap(broker!.url, p.serial, p.factorySecret)).rejects.toThrow(
      /Not authorized/,
    );
    const left = await brokerClients();
    expect(left).not.toContain(p.serial);
    expect(left).not.toContain(`bootstrap.${p.serial}`);
  });

  it('go with the zone that held them', async () => {
    const p = await paired();
    const cutOff = closed(p.device);
    const building = zone.slice(0, zone.indexOf('/zones/'));
    const doomed = (await cmA.post(`${building}/zones/create`, zoneBody({ name: 'Doomed' }))).json()
      .id as string;
    await subscribe(t, doomed);
    // Move the flowbox into the doomed zone, as if it had been paired there.
    await t.db.update(flowboxes).set({ zoneId: doomed }).where(eq(flowboxes.id, p.id));
    expect(
      (await cmA.delete(`${building}/zones/${doomed}/delete`, { confirm_name: 'Doomed' })).statusCode,
    ).toBe(204);
    await cutOff;
    await expect(
      TestDevice.connect(broker!.url, p.serial, { username: p.serial, password: p.password }),
    ).rejects.toThrow(/Not authorized/);
  });

  it('cannot be made while the broker is down: pairing answers 503 and stores nothing', async () => {
    const passes = accounts().reconcile_passes;
    await broker!.stop();
    try {
      const serial = uniqueSerial('FBD');
      const res = await cmA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: newSecret() });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('errors.service_unavailable');
      expect(await t.db.select().from(flowboxes).where(eq(flowboxes.serial, serial))).toEqual([]);
    } finally {
      await broker!.start();
    }
    await until(() => accounts().reconcile_passes > passes, 20_000);
  });

  it('left behind by an outage, or unknown to the database, are removed by reconciliation; the operator’s are not', async () => {
    const p = await paired();
    await until(async () => (await cmA.get(`${p.path}/info`)).statusCode === 200);
    await broker!.stop();
    // Unpaired while the broker is down: the database revokes, the broker cannot be told.
    const failures = accounts().revoke_failures;
    expect((await cmA.post(`${p.path}/unpair`)).statusCode).toBe(204);
    await until(() => accounts().revoke_failures > failures);
    const before = accounts().reconcile_passes;
    await broker!.start();
    // A managed account nobody knows (a crash between grant and commit), and the operator's own.
    const ghost = uniqueSerial('FBG');
    const answers = await broker!.control([
      { command: 'createRole', rolename: roleOf(ghost) },
      { command: 'createClient', username: ghost, password: 'x', roles: [{ rolename: roleOf(ghost) }] },
      { command: 'createClient', username: 'sensor7', password: 'x' },
    ]);
    expect(answers.filter((a) => a.error)).toEqual([]);
    // The admin connection comes back by itself and reconciles at once.
    await until(() => accounts().reconcile_passes > before, 20_000);
    await until(async () => !(await brokerClients()).includes(p.serial), 20_000);
    const left = await brokerClients();
    expect(left).not.toContain(`bootstrap.${p.serial}`);
    expect(left).not.toContain(ghost);
    expect(left).toEqual(expect.arrayContaining(['sensor7', 'flowbox.server', 'flowbox.admin']));
    const [roles] = await broker!.control([{ command: 'listRoles', verbose: false, count: -1, offset: 0 }]);
    expect((roles!.data as { roles: string[] }).roles).not.toContain(roleOf(ghost));
    await expect(
      TestDevice.connect(broker!.url, p.serial, { username: p.serial, password: p.password }),
    ).rejects.toThrow(/Not authorized/);
  });

  it('bind the client id to the user name: a takeover is refused, the victim stays and gets its queued commands', async () => {
    const victim = await paired();
    const attacker = await paired();
    await victim.device.end();
    const server = await mqtt.connectAsync(broker!.url, { ...broker!.server, reconnectPeriod: 0 });
    let online = await victimOnline(victim.serial, victim.password);
    try {
      await expect(signIn(attacker.serial, attacker.password, victim.serial, false)).rejects.toThrow(
        /Not authorized/,
      );
      await server.publishAsync(deviceTopic(victim.serial, 'commands'), 'close_valve-1', { qos: 1 });
      await until(() => online.commands.includes('close_valve-1'));
      expect(online.closes).toEqual([]);

      // Offline, its persistent session queues its commands; the attacker cannot take them.
      await online.client.endAsync();
      await server.publishAsync(deviceTopic(victim.serial, 'commands'), 'open_valve-2', { qos: 1 });
      await expect(signIn(attacker.serial, attacker.password, victim.serial, false)).rejects.toThrow(
        /Not authorized/,
      );
      online = await victimOnline(victim.serial, victim.password);
      await until(() => online.commands.includes('open_valve-2'));

      // A prepared pairing's factory identity cannot take it either, nor its own serial.
      const label = uniqueSerial('FBD');
      const factorySecret = newSecret();
      expect(
        (await cmA.post(`${zone}/flowboxes/pair`, { serial: label, factory_secret: factorySecret }))
          .statusCode,
      ).toBe(201);
      await expect(signIn(`bootstrap.${label}`, factorySecret, victim.serial)).rejects.toThrow(
        /Not authorized/,
      );
      await expect(signIn(`bootstrap.${label}`, factorySecret, label)).rejects.toThrow(/Not authorized/);
      await (await signIn(`bootstrap.${label}`, factorySecret, `bootstrap.${label}`)).endAsync();

      // An empty client id (the broker would make one up) is refused.
      await expect(signIn(attacker.serial, attacker.password, '')).rejects.toThrow(/Not authorized/);
      expect(online.closes).toEqual([]);
      await (await signIn(attacker.serial, attacker.password, attacker.serial)).endAsync();
    } finally {
      await online.client.endAsync(true);
      await server.endAsync(true);
      await attacker.device.end();
    }
  });

  it('made before the confirm topic get its ACL by reconciliation', async () => {
    const p = await paired();
    await p.device.end();
    const confirm = deviceTopic(p.serial, 'confirm');
    // As an older server made them: no confirm subscription.
    const [removed] = await broker!.control([
      { command: 'removeRoleACL', rolename: roleOf(p.serial), acltype: 'subscribeLiteral', topic: confirm },
    ]);
    expect(removed!.error).toBeUndefined();
    const control = DynsecControl.connect(broker!.url, broker!.admin, `reconcile-acl-${p.serial}`, quiet);
    try {
      await new Promise<void>((resolve) => control.onReady(resolve));
      await new DynsecDeviceAccounts(control, t.db, quiet).reconcile();
    } finally {
      await control.close();
    }
    const [role] = await broker!.control([{ command: 'getRole', rolename: roleOf(p.serial) }]);
    const acls = (role!.data as { role: { acls: { acltype: string; topic: string }[] } }).role.acls;
    expect(acls.map((a) => `${a.acltype} ${a.topic}`)).toContain(`subscribeLiteral ${confirm}`);
  });

  it('made before client ids were bound are bound by reconciliation', async () => {
    const p = await paired();
    await p.device.end();
    // As an older server made them: no client id.
    const [cleared] = await broker!.control([{ command: 'setClientId', username: p.serial }]);
    expect(cleared!.error).toBeUndefined();
    const control = DynsecControl.connect(broker!.url, broker!.admin, `reconcile-${p.serial}`, quiet);
    try {
      await new Promise<void>((resolve) => control.onReady(resolve));
      await new DynsecDeviceAccounts(control, t.db, quiet).reconcile();
    } finally {
      await control.close();
    }
    const [client] = await broker!.control([{ command: 'getClient', username: p.serial }]);
    expect((client!.data as { client: { clientid?: string } }).client.clientid).toBe(p.serial);
    await expect(signIn(p.serial, p.password, `${p.serial}-2`)).rejects.toThrow(/Not authorized/);
  });
});
