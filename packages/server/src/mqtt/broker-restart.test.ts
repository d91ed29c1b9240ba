import { readingsOfFlowbox } from '../db/readings.ts';
import { randomBytes } from 'node:crypto';
import { PROTOCOL_VERSION, type Telemetry } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { telemetryReadings } from '../db/schema.ts';
import { TestDevice, until, withMessagingJobs } from '../flowboxes/testing.ts';
import { Readiness } from '../health/readiness.ts';
import { createZones, pairDirectly, type PairedDevice } from '../telemetry/testing.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { aclOf, roleOf } from './device-accounts.ts';
import { startDeviceMessaging, type DeviceMessaging } from './messaging.ts';
import { dynsecPlugin, startTestMosquitto, type TestMosquitto } from './mosquitto.testing.ts';

/*
 * The server's ingest across restarts of an external Mosquitto (issue #13 item 2, #20 item 5): on
 * EVERY connection the server subscribes again, whether the broker says its session is present or
 * not (Mosquitto 2.0 restores a persistent session without its `$share/…` subscriptions), and its
 * readiness says 'broker' down while it is disconnected, not subscribed or not delivering. Each test
 * starts its own Mosquitto (never the machine's), restarted for real.
 */
const runs = dynsecPlugin() !== null || process.env.CI === 'true';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let broker: TestMosquitto | undefined;
let t: TestApp | undefined;
let messaging: DeviceMessaging | undefined;
const devices: TestDevice[] = [];

afterEach(async () => {
  for (const device of devices.splice(0)) await device.end();
  await messaging?.close();
  await t?.close();
  await broker?.close();
  messaging = t = broker = undefined;
});

/** The server, a paired device with its broker account, and what the server committed for it. */
async function setUp(persistence: boolean, probeEveryMs = 60_000) {
  broker = await startTestMosquitto({ persistence });
  t = await createTestApp();
  const [zone] = await createZones(t.db, 'Europe/Paris');
  const paired = await pairDirectly(t.db, zone!);
  await grantOnBroker(broker, paired);
  const readiness = new Readiness();
  const withoutJobs = await startDeviceMessaging({
    mqttUrl: broker.serverUrl,
    port: 0,
    host: '127.0.0.1',
    ctx: t.services.context,
    link: t.services.deviceLink,
    flowboxes: t.services.flowboxes,
    commands: t.services.commands,
    telemetry: t.services.telemetry,
    log: silent,
    shareGroup: `restart-${randomBytes(4).toString('hex')}`,
    // A stable client id: the broker keeps the session (and, persistent, across its restart).
    clientId: `fbx-restart-${randomBytes(4).toString('hex')}`,
    readiness,
  });
  messaging = withMessagingJobs(withoutJobs, t.services.commands, {
    periods: { delivery_probe: probeEveryMs },
  });
  const db = t.db;
  const stored = async (seq: number) =>
    (
      await db
        .select({ seq: telemetryReadings.seq })
        .from(telemetryReadings)
        .where(and(readingsOfFlowbox(paired.flowboxId), eq(telemetryReadings.seq, seq)))
    ).length === 1;
  return { paired, readiness, stored };
}

async function grantOnBroker(on: TestMosquitto, paired: PairedDevice): Promise<void> {
  const identity = { role: 'device' as const, serial: paired.serial };
  const answers = await on.control([
    { command: 'createRole', rolename: roleOf(paired.serial), acls: aclOf(identity) },
    {
      command: 'createClient',
      username: paired.serial,
      password: paired.password,
      roles: [{ rolename: roleOf(paired.serial) }],
    },
  ]);
  expect(answers.filter((a) => a.error)).toEqual([]);
}

async function connectDevice(on: TestMosquitto, paired: PairedDevice): Promise<TestDevice> {
  const device = await TestDevice.connect(on.url, paired.serial, {
    username: paired.serial,
    password: paired.password,
  });
  devices.push(device);
  return device;
}

function reading(seq: number): Telemetry {
  return {
    v: PROTOCOL_VERSION,
    seq,
    at: new Date(Date.now() - 60_000 + seq).toISOString(),
    interval_s: 60,
    volume_l: 1.5,
    flow_s: 10,
    temperature_c: 19,
    humidity_pct: 50,
  };
}

describe.skipIf(!runs)('ingest across a restart of an external Mosquitto', () => {
  it.each([
    ['with persistence (the session comes back without its shared subscriptions)', true],
    ['without persistence (the session is gone)', false],
  ])('%s: the server subscribes again and readings are stored', async (_, persistence) => {
    const { paired, readiness, stored } = await setUp(persistence);
    const device = await connectDevice(broker!, paired);
    await device.publish('telemetry', reading(1));
    await until(() => stored(1));
    expect(readiness.ready).toBe(true);

    await device.end();
    devices.splice(0);
    await broker!.stop();
    await until(() => readiness.problems().broker !== undefined);
    await broker!.start();
    await until(() => readiness.ready, 15_000);

    // The broker acknowledges readings whether or not anybody subscribes: only the server's
    // subscription makes them reach it.
    const again = await connectDevice(broker!, paired);
    await again.publish('telemetry', reading(2));
    await until(() => stored(2), 10_000);
  });

  it('reports a broker that stops delivering to the server, and recovers when it delivers again', async () => {
    const { paired, readiness, stored } = await setUp(false, 200);
    await until(() => readiness.ready);
    // The broker keeps the server connected and subscribed, but delivers it nothing.
    const deny = { acltype: 'publishClientReceive', topic: 'flowbox/#', allow: false, priority: 10 };
    expect(
      await broker!.control([{ command: 'addRoleACL', rolename: 'flowbox.server', ...deny }]),
    ).not.toContainEqual(expect.objectContaining({ error: expect.anything() }));
    await until(() => readiness.problems().broker?.includes('not delivering'), 5_000);

    await broker!.control([
      { command: 'removeRoleACL', rolename: 'flowbox.server', acltype: deny.acltype, topic: deny.topic },
    ]);
    await until(() => readiness.ready, 5_000);
    const device = await connectDevice(broker!, paired);
    await device.publish('telemetry', reading(1));
    await until(() => stored(1));
  });
});
