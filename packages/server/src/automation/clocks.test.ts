import { deviceTopic, encodePayload } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, flowboxes, zoneAutomation } from '../db/schema.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { pairDirectly, reading, type PairedDevice } from '../telemetry/testing.ts';
import {
  buildingBody,
  createTestApp,
  createWorld,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * Device clocks and automatic closing (issue #20 item 1, docs/automation.md "Device clocks"): a
 * device whose clock is fast, slow, or pulled back by its SNTP correction must not blind the
 * closing of its zone, and a replayed offline buffer must still not close the water by itself.
 * End to end through the embedded broker, the telemetry writer and detection; the server's clock
 * is the test's, and each device's clock is the server's plus its own skew.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let messaging: DeviceMessaging & { port: number };
let buildingPath: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 7 * 86400 });
  w = await createWorld(t.db);
  cmA = await loginAs(t.app, 'cm.a@test.io');
  const site = `/v1/customers/${w.customers.a.id}/sites/${w.sites.a1.id}`;
  const building = await cmA.post(`${site}/buildings/create`, buildingBody({ volume_unit: 'liter' }));
  buildingPath = `${site}/buildings/${building.json().id}`;
  messaging = await startMessaging(t);
});
afterAll(async () => {
  for (const c of clients) await c.endAsync(true);
  await messaging.close();
  await t.close();
});

/** A connected device; its clock reads the server's plus `skewMs` (positive: ahead). */
type Device = {
  paired: PairedDevice;
  client: MqttClient;
  seq: number;
  skewMs: number;
  closes: string[];
  /** The server's clock when the device last published a reading. */
  sentAt: Date;
};
type Zone = { id: string; path: string; devices: Device[] };

/** A zone with one paired, connected device per skew, automatic closing on with a 50 L margin. */
async function zoneWith(name: string, skewsMs: number[]): Promise<Zone> {
  const created = await cmA.post(`${buildingPath}/zones/create`, zoneBody({ name, profile: 'housing' }));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const path = `${buildingPath}/zones/${id}`;
  const devices: Device[] = [];
  for (const skewMs of skewsMs) {
    const paired = await pairDirectly(t.db, {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      buildingId: created.json().building_id,
      zoneId: id,
    });
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
      username: paired.serial,
      password: paired.password,
      clientId: paired.serial,
      reconnectPeriod: 0,
    });
    clients.push(client);
    await client.subscribeAsync(deviceTopic(paired.serial, 'commands'), { qos: 1 });
    const device: Device = { paired, client, seq: 0, skewMs, closes: [], sentAt: new Date(0) };
    client.on('message', (_topic, payload) => {
      const command = JSON.parse(payload.toString()) as { id: string; name: string };
      if (command.name === 'close_valve' && !device.closes.includes(command.id))
        device.closes.push(command.id);
    });
    devices.push(device);
  }
  const saved = await cmA.put(`${path}/automation/update`, {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 50,
    duration_margin_enabled: false,
    duration_margin_minutes: 30,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { id, path, devices };
}

/**
 * The device reports one minute ending now by its own clock (or at `at`), and it is stored (unless
 * `stored` is false: a reading the server may refuse, such as one dated a day ahead).
 */
async function report(device: Device, liters: number, at?: Date, stored = true): Promise<void> {
  device.seq += 1;
  device.sentAt = t.clock.now();
  const end = at ?? new Date(device.sentAt.getTime() + device.skewMs);
  const message = { ...reading(device.seq, end, liters), flow_s: liters > 0 ? 60 : 0 };
  await device.client.publishAsync(deviceTopic(device.paired.serial, 'telemetry'), encodePayload(message), {
    qos: 1,
  });
  if (!stored) return;
  await until(async () => {
    const [row] = await t.db
      .select({ seq: flowboxes.lastSequence })
      .from(flowboxes)
      .where(eq(flowboxes.id, device.paired.flowboxId));
    return row?.seq === device.seq;
  });
}

/** A minute passes on the server's clock; each device reports its litres, in order. */
async function minute(zone: Zone, liters: number[]): Promise<void> {
  t.clock.advance(60_000);
  for (const [i, device] of zone.devices.entries()) await report(device, liters[i] ?? 0);
}

const automationOf = async (zoneId: string) =>
  (await t.db.select().from(zoneAutomation).where(eq(zoneAutomation.zoneId, zoneId)))[0]!;

const closesIssued = async (zone: Zone) =>
  (
    await t.db
      .select({ issuedAt: deviceCommands.issuedAt, flowboxId: deviceCommands.flowboxId })
      .from(deviceCommands)
      .where(eq(deviceCommands.name, 'valve_close'))
  ).filter((c) => zone.devices.some((d) => d.paired.flowboxId === c.flowboxId));

/** Nothing closed or locked yet, after the reading before the crossing one. */
async function expectOpen(zone: Zone): Promise<void> {
  expect((await automationOf(zone.id)).lockedAt).toBeNull();
  expect(await closesIssued(zone)).toEqual([]);
  for (const device of zone.devices) expect(device.closes).toEqual([]);
}

/**
 * The reading just stored crossed the margin: the zone locked at once (on the server's clock,
 * within 1 s of that reading's receipt) and every device of the zone received its close.
 */
async function expectClosedBy(zone: Zone, crossing: Device): Promise<void> {
  const row = await until(async () => {
    const found = await automationOf(zone.id);
    return found.lockedAt ? found : undefined;
  });
  expect(row.lockedBy).toBe('volume');
  const late = row.lockedAt!.getTime() - crossing.sentAt.getTime();
  expect(late).toBeGreaterThanOrEqual(0);
  expect(late).toBeLessThanOrEqual(1000);
  await until(() => zone.devices.every((d) => d.closes.length === 1));
}

describe('a device clock never blinds automatic closing', () => {
  it('a neighbour 3 minutes fast, reporting no flow: a fresh burst past the margin closes', async () => {
    const zone = await zoneWith('Fast neighbour', [180_000, 0]);
    for (let i = 0; i < 3; i++) await minute(zone, [0, 0]);
    await minute(zone, [0, 30]);
    await expectOpen(zone);
    await minute(zone, [0, 30]);
    await expectClosedBy(zone, zone.devices[1]!);
    // The neighbour's dry readings, dated ahead, did not end the event: both minutes counted.
    expect((await automationOf(zone.id)).eventVolumeMl).toBe(60_000);
  });

  it('a neighbour 5 minutes slow keeps its own live readings in play: its burst closes', async () => {
    const zone = await zoneWith('Slow device', [-300_000, 0]);
    for (let i = 0; i < 3; i++) await minute(zone, [0, 0]);
    await minute(zone, [30, 0]);
    await expectOpen(zone);
    await minute(zone, [30, 0]);
    await expectClosedBy(zone, zone.devices[0]!);
  });

  for (const [label, aheadMs] of [
    ['24 hours', 86_400_000],
    ['14 minutes', 14 * 60_000],
  ] as const) {
    it(`one reading dated ${label} ahead does not blind the zone`, async () => {
      const zone = await zoneWith(`Future ${label}`, [0]);
      const [device] = zone.devices as [Device];
      for (let i = 0; i < 2; i++) await minute(zone, [0]);
      t.clock.advance(60_000);
      await report(device, 0, new Date(t.clock.now().getTime() + aheadMs), false);
      await minute(zone, [30]);
      await expectOpen(zone);
      await minute(zone, [30]);
      await expectClosedBy(zone, zone.devices[0]!);
    });
  }

  it('a clock pulled back 5 minutes by its SNTP correction does not blind its own zone', async () => {
    const zone = await zoneWith('Corrected clock', [300_000]);
    const [device] = zone.devices as [Device];
    for (let i = 0; i < 3; i++) await minute(zone, [0]);
    device.skewMs = 0;
    await minute(zone, [30]);
    await expectOpen(zone);
    await minute(zone, [30]);
    await expectClosedBy(zone, zone.devices[0]!);
  });

  it('a replayed offline buffer stays in the past: an event that ended during the outage closes nothing', async () => {
    const zone = await zoneWith('Replay', [0, 20_000]);
    const [device, neighbour] = zone.devices as [Device, Device];
    for (let i = 0; i < 3; i++) await minute(zone, [0, 0]);
    // The device goes offline for 30 minutes; water runs for the first 15 (450 L), then stops.
    const offlineFrom = t.clock.now().getTime();
    for (let i = 0; i < 30; i++) await minute({ ...zone, devices: [neighbour] }, [0]);
    // Back: it replays its buffer, each reading dated by its clock, all received now.
    for (let i = 1; i <= 30; i++) await report(device, i <= 15 ? 30 : 0, new Date(offlineFrom + i * 60_000));
    await expectOpen(zone);
    // A new burst, live, closes at the reading past the margin.
    await minute(zone, [30, 0]);
    await expectOpen(zone);
    await minute(zone, [30, 0]);
    await expectClosedBy(zone, zone.devices[0]!);
  });
});
