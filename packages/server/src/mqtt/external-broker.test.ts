import { readingsOfFlowbox } from '../db/readings.ts';
import { randomBytes } from 'node:crypto';
import { PROTOCOL_VERSION } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { events, telemetryReadings } from '../db/schema.ts';
import { reading } from '../telemetry/testing.ts';
import {
  newSecret,
  startMessaging,
  subscribe,
  TestDevice,
  uniqueSerial,
  until,
} from '../flowboxes/testing.ts';
import {
  buildingBody,
  createWorldApp,
  testConfig,
  zoneBody,
  type ApiClient,
  type TestApp,
} from '../test/harness.ts';
import { connectionKinds, type DeviceMessaging } from './messaging.ts';

/*
 * The same protocol through an external broker (MQTT_URL): the machine's Mosquitto on
 * 127.0.0.1:1883 (FLOWBOX_TEST_MQTT to use another). Its access rules are the operator's
 * (docs/protocol.md gives the ACL); this proves ingest, commands and the MQTT 5 shared subscription.
 */
const MQTT_URL = process.env.FLOWBOX_TEST_MQTT ?? 'mqtt://127.0.0.1:1883';
/** Other runs may share this broker: their servers must not read our devices' messages. */
const GROUP = `ingest-test-${randomBytes(4).toString('hex')}`;

let t: TestApp;
let cmA: ApiClient;
let messaging: DeviceMessaging;
let zone: string;

beforeAll(async () => {
  let w;
  ({ t, w, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const zoneId = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json()
    .id as string;
  zone = `${site}/buildings/${building}/zones/${zoneId}`;
  await subscribe(t, zoneId);
  messaging = await startMessaging(t, MQTT_URL, GROUP);
});
afterAll(async () => {
  await messaging.close();
  await t.close();
});

/** A second server instance on the same database and clock, as a deployment's second process. */
async function anotherInstance() {
  const { app, services } = await buildApp({
    config: testConfig(),
    db: t.db,
    logger: false,
    now: t.clock.now,
  });
  await app.ready();
  return { app, services };
}

async function pairedDevice() {
  const serial = uniqueSerial('FBX');
  const factorySecret = newSecret();
  const id = (await cmA.post(`${zone}/flowboxes/pair`, { serial, factory_secret: factorySecret })).json()
    .id as string;
  const path = `${zone}/flowboxes/${id}`;
  const bootstrap = await TestDevice.bootstrap(MQTT_URL, serial, factorySecret);
  await bootstrap.subscribe('pairing/response');
  expect((await bootstrap.requestPairing({}, 'pending')).result).toBe('pending');
  const seen = bootstrap.received.length;
  expect((await cmA.post(`${path}/validate`)).statusCode).toBe(200);
  const accepted = (
    await until(() =>
      bootstrap.received
        .slice(seen)
        .find((r) => r.message.result === 'accepted' && r.topic.endsWith('/pairing/response')),
    )
  ).message;
  await bootstrap.end();
  const device = await TestDevice.connect(MQTT_URL, serial, {
    username: serial,
    password: String(accepted.password),
  });
  await device.subscribe('commands');
  return { serial, path, device, id };
}

describe(`an external broker (${MQTT_URL})`, () => {
  it('carries pairing, state and commands with their acknowledgements', async () => {
    expect(messaging.describe).toBe(`MQTT broker ${MQTT_URL}`);
    const p = await pairedDevice();
    await p.device.publish('state', {
      v: PROTOCOL_VERSION,
      at: new Date().toISOString(),
      valve: 'closed',
      maintenance_mode: false,
      leak_detection_mode: false,
      leak_detection_until: null,
      model: 'one_inch_v1',
      water_temperature: 'cold',
      versions: { esp: '5.1.2', board: 'B3', firmware: '2.4.0' },
      network: { interface: 'ethernet', address: '10.0.0.9', gateway: '10.0.0.1', wifi_ssid: null },
      temperature_c: 20,
      humidity_pct: 40,
    });
    await until(async () => (await cmA.get(`${p.path}/info`)).json().valve === 'closed');
    const commandId = (await cmA.post(`${p.path}/commands/send`, { name: 'valve_open' })).json().id as string;
    expect((await p.device.next('commands')).message).toMatchObject({ id: commandId, name: 'open_valve' });
    await p.device.publish('acks', {
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: new Date().toISOString(),
      result: 'done',
      reason: null,
    });
    await until(async () => (await cmA.get(`${p.path}/commands/${commandId}/info`)).json().status === 'done');
    await p.device.end();
  });

  it("reads on while a message waits for the database: one device's stuck presence holds no other message (issue 32)", async () => {
    const stuck = await pairedDevice();
    const other = await pairedDevice();
    const online = () => ({ v: PROTOCOL_VERSION, at: new Date().toISOString(), status: 'online' });
    const presence = messaging.ingest.presence;
    const seen = presence.seen.bind(presence);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let stuckWaits = false;
    presence.seen = (serial) => {
      if (serial !== stuck.serial) return seen(serial);
      stuckWaits = true;
      return gate.then(() => seen(serial));
    };
    try {
      const takenBefore = presence.counters.taken;
      await stuck.device.publish('presence', online());
      await until(() => stuckWaits);
      // Behind the stuck presence on the one ingest connection: another device's reading and
      // heartbeat, each committed while the first still waits.
      await other.device.publish('telemetry', reading(1, new Date(Date.now() - 60_000)));
      await other.device.publish('presence', online());
      await until(
        async () =>
          (await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(other.id))).length === 1,
        10_000,
      );
      await until(() => presence.counters.taken > takenBefore, 10_000);
    } finally {
      open();
      presence.seen = seen;
    }
    await stuck.device.end();
    await other.device.end();
  });

  it('lets the broker send each ingest connection a bounded number of messages unacknowledged (issue 32)', async () => {
    // An instance of its own group whose writer does not commit: without a Receive Maximum the broker
    // would hand it every reading (MQTT 5's default window is 65,535), held in its memory.
    const { app, services } = await anotherInstance();
    const stalled = await startMessaging({ ...t, app, services }, MQTT_URL, `${GROUP}-stalled`, {
      ingestInFlight: 4,
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const submit = stalled.telemetry.submit.bind(stalled.telemetry);
    let handed = 0;
    stalled.telemetry.submit = (serial, telemetry) => {
      handed += 1;
      return gate.then(() => submit(serial, telemetry));
    };
    const p = await pairedDevice();
    try {
      const start = Date.now() - 30 * 60_000;
      for (let seq = 1; seq <= 12; seq++)
        await p.device.publish('telemetry', reading(seq, new Date(start + seq * 60_000)));
      // The first instance stores all twelve; the stalled one was given four, and no more.
      const stored = async () =>
        (await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(p.id))).length;
      await until(async () => (await stored()) === 12, 20_000);
      await until(() => handed === 4, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(handed).toBe(4);
      // Once it commits, the broker sends it the rest.
      open();
      await until(() => handed === 12, 20_000);
    } finally {
      open();
      await p.device.end();
      await stalled.close();
      await app.close();
    }
  });

  it('gives telemetry ingest connections of its own (MQTT_INGEST_CONNECTIONS): each message read once', async () => {
    expect(connectionKinds(0, 1, ['telemetry', 'presence'])).toEqual(['telemetry', 'presence']);
    expect(connectionKinds(0, 3, ['telemetry', 'presence', 'state'])).toEqual(['presence', 'state']);
    expect(connectionKinds(2, 3, ['telemetry', 'presence', 'state'])).toEqual(['telemetry']);
    const { app, services } = await anotherInstance();
    // In the same group as the first instance: four connections share the device messages. (The
    // test below runs once this instance closed: a closed instance takes no share any more.)
    const second = await startMessaging({ ...t, app, services }, MQTT_URL, GROUP, { ingestConnections: 3 });
    const p = await pairedDevice();
    const duplicatesBefore = messaging.ingest.counters.duplicates + second.ingest.counters.duplicates;
    const start = Date.now() - 20 * 60_000;
    for (let seq = 1; seq <= 12; seq++) {
      await p.device.publish('telemetry', reading(seq, new Date(start + seq * 60_000)));
      if (seq % 3 === 0)
        await p.device.publish('presence', {
          v: PROTOCOL_VERSION,
          at: new Date().toISOString(),
          status: 'online',
        });
    }
    const stored = async () =>
      (await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(p.id))).length;
    await until(async () => (await stored()) === 12, 20_000);
    expect(messaging.ingest.counters.duplicates + second.ingest.counters.duplicates).toBe(duplicatesBefore);
    await p.device.end();
    await second.close();
    await app.close();
  });

  it('splits ingest between instances with a shared subscription: each message is read once', async () => {
    const { app, services } = await anotherInstance();
    const second = await startMessaging({ ...t, app, services }, MQTT_URL, GROUP);
    const p = await pairedDevice();
    const before = messaging.ingest.counters.received + second.ingest.counters.received;
    // The device's own start-up messages (presence, state) may still arrive while it publishes:
    // what shows an event read twice is the ingest's duplicate count, not the messages received.
    const duplicatesBefore = messaging.ingest.counters.duplicates + second.ingest.counters.duplicates;
    for (let seq = 1; seq <= 10; seq++)
      await p.device.publish('events', {
        v: PROTOCOL_VERSION,
        seq,
        at: new Date().toISOString(),
        type: 'maintenance_mode_set_on_device',
        enabled: seq % 2 === 1,
      });
    await until(() => messaging.ingest.counters.received + second.ingest.counters.received >= before + 10);
    const logged = async () =>
      (await t.db.select().from(events).where(eq(events.objectId, p.id))).filter((e) =>
        e.actionName.startsWith('maintenance_'),
      ).length;
    await until(async () => (await logged()) === 10);
    expect(messaging.ingest.counters.duplicates + second.ingest.counters.duplicates).toBe(duplicatesBefore);
    await p.device.end();
    await second.close();
    await app.close();
  });
});
