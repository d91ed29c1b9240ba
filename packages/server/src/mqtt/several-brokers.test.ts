import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingsOfFlowbox } from '../db/readings.ts';
import { telemetryReadings } from '../db/schema.ts';
import { reading } from '../telemetry/testing.ts';
import { deviceState, pairThroughBroker, startMessaging, subscribe, until } from '../flowboxes/testing.ts';
import { buildingBody, createWorldApp, zoneBody, type ApiClient, type TestApp } from '../test/harness.ts';
import type { DeviceMessaging } from './messaging.ts';
import { dynsecPlugin, startTestMosquitto, type TestMosquitto } from './mosquitto.testing.ts';

/*
 * Devices shared out among independent brokers (docs/operations.md "Beyond one Mosquitto", issue
 * 32): MQTT_URL names two Mosquittos of the test's own, each with dynamic security. One instance
 * reads both; a device paired through one broker may connect to either, its readings are confirmed
 * through the broker it sent them on, commands reach it wherever it is, and an unpairing deletes its
 * accounts on both.
 */
const runs = dynsecPlugin() !== null || process.env.CI === 'true';
if (!runs)
  console.warn(
    'several-brokers.test.ts skipped: Mosquitto with dynamic security is not installed (apt-get install mosquitto); CI runs it',
  );

let brokers: TestMosquitto[] = [];
let t: TestApp;
let cmA: ApiClient;
let messaging: DeviceMessaging;
let zone: string;

const accounts = () => t.services.deviceLink.counters!.accounts!;

beforeAll(async () => {
  if (!runs) return;
  brokers = await Promise.all([startTestMosquitto(), startTestMosquitto()]);
  let w;
  ({ t, w, cmA } = await createWorldApp());
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = (await cmA.post(`${site}/buildings/create`, buildingBody())).json().id as string;
  const created = (await cmA.post(`${site}/buildings/${building}/zones/create`, zoneBody())).json();
  zone = `${site}/buildings/${building}/zones/${created.id}`;
  await subscribe(t, created.id as string);
  messaging = await startMessaging(
    t,
    brokers.map((b) => b.serverUrl).join(','),
    `brokers-${randomBytes(4).toString('hex')}`,
    // The test brokers share their admin account's name and password.
    { dynsec: brokers[0]!.admin, accountsReconcileMs: 3_600_000 },
  );
  await until(() => accounts().reconcile_passes >= 1, 20_000);
}, 120_000);
afterAll(async () => {
  try {
    await messaging?.close();
    await t?.close();
  } finally {
    await Promise.all(brokers.map((b) => b.close()));
  }
});

async function clientsOf(broker: TestMosquitto): Promise<string[]> {
  const [answer] = await broker.control([{ command: 'listClients', verbose: false, count: -1, offset: 0 }]);
  return (answer!.data as { clients: string[] }).clients;
}

/** Paired through `through`'s bootstrap; the device then signs in on broker `on`. */
async function paired(through: TestMosquitto, on: TestMosquitto) {
  const p = await pairThroughBroker(cmA, zone, {
    bootstrapUrl: through.url,
    deviceUrl: on.url,
    prefix: 'FBM',
  });
  await p.device.subscribe('commands');
  await p.device.subscribe('confirm');
  return p;
}

describe.skipIf(!runs)('devices on several independent brokers', () => {
  it('are read, confirmed and commanded through whichever broker each is on', async () => {
    const [one, two] = brokers as [TestMosquitto, TestMosquitto];
    expect(messaging.describe).toMatch(/^MQTT brokers mqtt:\/\/.+, mqtt:\/\/.+$/);
    // Accounts are made on both brokers, whichever one the pairing went through.
    const onTwo = await paired(one, two);
    const onOne = await paired(two, one);
    for (const broker of brokers)
      expect(await clientsOf(broker)).toEqual(expect.arrayContaining([onTwo.serial, onOne.serial]));

    for (const [p, seq] of [
      [onTwo, 1],
      [onOne, 1],
      [onTwo, 2],
    ] as const) {
      const seen = p.device.received.length;
      await p.device.publish('telemetry', reading(seq, new Date()));
      // The confirmation comes back through the broker the reading went through.
      const confirm = await p.device.next('confirm', seen);
      expect(confirm.message.telemetry).toEqual([[seq, seq]]);
    }
    const seqs = async (id: string) =>
      (await t.db.select().from(telemetryReadings).where(readingsOfFlowbox(id))).map((r) => r.seq).sort();
    expect(await seqs(onTwo.id)).toEqual([1, 2]);
    expect(await seqs(onOne.id)).toEqual([1]);

    // A command reaches each device on its own broker.
    for (const p of [onTwo, onOne]) {
      await p.device.publish('state', deviceState({ valve: 'closed' }));
      await until(async () => (await cmA.get(`${p.path}/info`)).json().valve === 'closed');
      const seen = p.device.received.length;
      const id = (await cmA.post(`${p.path}/commands/send`, { name: 'valve_open' })).json().id as string;
      expect((await p.device.next('commands', seen)).message).toMatchObject({ id, name: 'open_valve' });
      await p.device.acknowledge(id);
      await until(async () => (await cmA.get(`${p.path}/commands/${id}/info`)).json().status === 'done');
    }

    // Unpairing deletes the accounts on both brokers, and cuts the device off where it is.
    const cutOff = new Promise<void>((resolve) => onTwo.device.client.once('close', () => resolve()));
    expect((await cmA.post(`${onTwo.path}/unpair`)).statusCode).toBe(204);
    await cutOff;
    for (const broker of brokers) {
      const left = await clientsOf(broker);
      expect(left).not.toContain(onTwo.serial);
      expect(left).not.toContain(`bootstrap.${onTwo.serial}`);
      expect(left).toContain(onOne.serial);
    }
    await onOne.device.end();
  });

  it('are deleted from the brokers that are up, and reconciled on one that was away', async () => {
    const [one, two] = brokers as [TestMosquitto, TestMosquitto];
    const p = await paired(two, two);
    await p.device.end();
    // Unpaired while broker one (the first listed) was away: broker two loses the account at once,
    // broker one's copy outlives the revocation, and the reconciliation after its return deletes it.
    const failures = accounts().revoke_failures;
    await one.stop();
    try {
      expect((await cmA.post(`${p.path}/unpair`)).statusCode).toBe(204);
      await until(() => accounts().revoke_failures > failures);
      expect(await clientsOf(two)).not.toContain(p.serial);
    } finally {
      await one.start();
    }
    await until(async () => {
      await messaging.accounts!.reconcile();
      return !(await clientsOf(one)).includes(p.serial);
    }, 20_000);
    expect(accounts().missing).toBe(0);
  });
});
