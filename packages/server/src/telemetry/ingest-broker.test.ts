import { readingsOfFlowbox, readingsOfFlowboxes } from '../db/readings.ts';
import { randomBytes } from 'node:crypto';
import { deviceTopic, encodePayload, type LiveMessage } from '@flowbox/shared';
import { and, eq, inArray } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumptionHourly, telemetryReadings } from '../db/schema.ts';
import { startMessaging, until } from '../flowboxes/testing.ts';
import { buildApp } from '../app.ts';
import { TelemetryHooks } from './hooks.ts';
import { createTestApp, testConfig, type TestApp } from '../test/harness.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { createZones, pairDirectly, reading, type PairedDevice, type TelemetryZone } from './testing.ts';

/*
 * Telemetry through a real broker into the real database (issue #6): the embedded Aedes broker,
 * and the machine's Mosquitto (MQTT_URL, MQTT 5 shared subscription). A device's publish resolves
 * on its PUBACK.
 */
const MOSQUITTO = process.env.FLOWBOX_TEST_MQTT ?? 'mqtt://127.0.0.1:1883';
/** Waits on a condition; generous, since the broker and the database share a busy machine. */
const eventually = <T>(check: () => Promise<T | undefined | false> | T | undefined | false) =>
  until(check, 20_000);
/** The start of the hour `hours` hours ago: readings the server takes (docs/protocol.md "Timestamps and their bounds"). */
const hourAgo = (hours: number) => Math.floor(Date.now() / 3_600_000) * 3_600_000 - hours * 3_600_000;

describe.each([
  { broker: 'embedded', url: undefined },
  { broker: 'Mosquitto', url: MOSQUITTO },
])('telemetry through the $broker broker', ({ url }) => {
  let t: TestApp;
  let messaging: DeviceMessaging & { port: number };
  let zone: TelemetryZone;
  const devices: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    [zone] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
    messaging = await startMessaging(t, url, url ? `telemetry-${randomBytes(4).toString('hex')}` : undefined);
  });
  afterAll(async () => {
    for (const d of devices) await d.endAsync(true);
    await messaging.close();
    await t.close();
  });

  /** A device that reconnects by itself and sends again what was not acknowledged. */
  async function connect(device: PairedDevice): Promise<MqttClient> {
    const client = await mqtt.connectAsync(url ?? `mqtt://127.0.0.1:${messaging.port}`, {
      username: device.serial,
      password: device.password,
      clientId: device.serial,
      reconnectPeriod: 100,
      connectTimeout: 3000,
    });
    devices.push(client);
    return client;
  }

  const stored = (flowboxId: string) =>
    t.db.select().from(telemetryReadings).where(readingsOfFlowbox(flowboxId));

  it('stores a redelivery and a replayed offline buffer once, with the rollups counted once', async () => {
    const device = await pairDirectly(t.db, zone);
    const client = await connect(device);
    const topic = deviceTopic(device.serial, 'telemetry');
    const start = hourAgo(3);
    const buffer = Array.from({ length: 30 }, (_, i) =>
      reading(i + 1, new Date(start + (i + 1) * 60_000), 2),
    );
    await Promise.all(buffer.map((r) => client.publishAsync(topic, encodePayload(r), { qos: 1 })));
    // The whole buffer again, newest first, as a replay after a connection lost mid-way would.
    await Promise.all(
      [...buffer].reverse().map((r) => client.publishAsync(topic, encodePayload(r), { qos: 1, dup: true })),
    );
    await eventually(async () => (await stored(device.flowboxId)).length === 30);
    const hours = await t.db
      .select()
      .from(consumptionHourly)
      .where(eq(consumptionHourly.flowboxId, device.flowboxId));
    expect(hours.map((h) => [h.hour.toISOString(), h.readings, h.volumeMl])).toEqual([
      [new Date(start).toISOString(), 30, 60_000],
    ]);
    await eventually(() => messaging.ingest.counters.duplicates >= 30);
  });

  it('counts and drops malformed telemetry and keeps the connection', async () => {
    const device = await pairDirectly(t.db, zone);
    const client = await connect(device);
    const topic = deviceTopic(device.serial, 'telemetry');
    const before = { ...messaging.ingest.counters.dropped };
    await client.publishAsync(topic, '{ not json', { qos: 1 });
    await client.publishAsync(topic, encodePayload({ ...reading(1, new Date()), volume_l: -1 }), { qos: 1 });
    await eventually(
      () =>
        messaging.ingest.counters.dropped.not_json === before.not_json + 1 &&
        messaging.ingest.counters.dropped.invalid_schema === before.invalid_schema + 1,
    );
    await client.publishAsync(topic, encodePayload(reading(1, new Date())), { qos: 1 });
    await eventually(async () => (await stored(device.flowboxId)).length === 1);
    expect(client.connected).toBe(true);
  });

  it('does not acknowledge a reading whose batch failed: it comes again and is stored once', async () => {
    const device = await pairDirectly(t.db, zone);
    const client = await connect(device);
    let failures = 0;
    const remove = t.services.telemetry.register({
      name: 'fails once',
      inTransaction: async (_tx, readings) => {
        if (failures === 0 && readings.some((r) => r.flowboxId === device.flowboxId)) {
          failures += 1;
          throw new Error('database hiccup');
        }
      },
    });
    try {
      const published = client.publishAsync(
        deviceTopic(device.serial, 'telemetry'),
        encodePayload(reading(1, new Date(), 4)),
        { qos: 1 },
      );
      // Embedded: the device's PUBACK waits for the commit, so it resolves after the retry.
      // Mosquitto acknowledges the device itself; the server's unacknowledged copy comes back.
      await published;
      await eventually(() => failures === 1);
      await eventually(async () => (await stored(device.flowboxId)).length === 1);
      expect((await stored(device.flowboxId))[0]!.volumeMl).toBe(4000);
    } finally {
      remove();
    }
  });

  it('tells the browsers of the zone, once the batch is committed, that its consumption changed', async () => {
    const device = await pairDirectly(t.db, zone);
    const client = await connect(device);
    const heard: LiveMessage[] = [];
    const unsubscribe = t.services.live.subscribe((m) => {
      if (m.type === 'consumption' && m.zone_id === zone.zoneId) heard.push(m);
    });
    try {
      await client.publishAsync(
        deviceTopic(device.serial, 'telemetry'),
        encodePayload(reading(1, new Date(hourAgo(2)), 1.25)),
        { qos: 1 },
      );
      const message = await eventually(() => heard[0]);
      expect(message).toMatchObject({
        type: 'consumption',
        customer_id: zone.customerId,
        site_id: zone.siteId,
        building_id: zone.buildingId,
        zone_id: zone.zoneId,
      });
      const [row] = await t.db
        .select()
        .from(telemetryReadings)
        .where(and(readingsOfFlowbox(device.flowboxId), eq(telemetryReadings.seq, 1)));
      expect(row?.volumeMl).toBe(1250);
    } finally {
      unsubscribe();
    }
  });
});

describe('two instances on one Mosquitto (DESIGN.md §7)', () => {
  // The write side alone (no rules-engine listeners): both instances share this test's one
  // database pool, unlike production where each has its own.
  it('split telemetry through the shared subscription: every reading stored once, rollups exact', async () => {
    const t = await createTestApp();
    const group = `telemetry-${randomBytes(4).toString('hex')}`;
    const first = await startMessaging(
      { ...t, services: { ...t.services, telemetry: new TelemetryHooks() } },
      MOSQUITTO,
      group,
    );
    const { app, services } = await buildApp({
      config: testConfig(),
      db: t.db,
      logger: false,
      now: t.clock.now,
    });
    await app.ready();
    const second = await startMessaging(
      { ...t, app, services: { ...services, telemetry: new TelemetryHooks() } },
      MOSQUITTO,
      group,
    );
    try {
      const [zone] = await createZones(t.db, 'Europe/Paris');
      const devices = await Promise.all([1, 2, 3].map(() => pairDirectly(t.db, zone!)));
      const start = hourAgo(4);
      for (const device of devices) {
        const client = await mqtt.connectAsync(MOSQUITTO, { clientId: device.serial, reconnectPeriod: 0 });
        const topic = deviceTopic(device.serial, 'telemetry');
        await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            client.publishAsync(topic, encodePayload(reading(i + 1, new Date(start + (i + 1) * 60_000), 1)), {
              qos: 1,
            }),
          ),
        );
        await client.endAsync();
      }
      const ids = devices.map((d) => d.flowboxId);
      await until(
        async () =>
          (await t.db.select().from(telemetryReadings).where(readingsOfFlowboxes(ids))).length === 300,
        40_000,
      );
      // A writer counts its batch just after the commit that made the rows visible: wait for it.
      const counted = () => first.telemetry.counters.stored + second.telemetry.counters.stored;
      await until(() => counted() >= 300, 10_000);
      // Both instances took part, and nothing was stored twice.
      expect(first.telemetry.counters.stored).toBeGreaterThan(0);
      expect(second.telemetry.counters.stored).toBeGreaterThan(0);
      expect(counted()).toBe(300);
      const hours = await t.db
        .select()
        .from(consumptionHourly)
        .where(inArray(consumptionHourly.flowboxId, ids));
      // 06:01…07:00 (placed at `at` − 1 ms) → 60 readings in 06:00, 07:01…07:40 → 40 in 07:00.
      expect(hours.map((h) => h.readings).sort((a, b) => a - b)).toEqual([40, 40, 40, 60, 60, 60]);
      expect(hours.reduce((sum, h) => sum + h.volumeMl, 0)).toBe(300_000);
    } finally {
      await second.close();
      await app.close();
      await first.close();
      await t.close();
    }
  }, 60_000);
});

describe('the embedded broker', () => {
  let t: TestApp;
  let messaging: DeviceMessaging & { port: number };
  beforeAll(async () => {
    t = await createTestApp();
    messaging = await startMessaging(t);
  });
  afterAll(async () => {
    await messaging.close();
    await t.close();
  });

  it('acknowledges a reading to the device only once it is committed', async () => {
    const [zone] = await createZones(t.db, 'Europe/Paris');
    const device = await pairDirectly(t.db, zone!);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
      username: device.serial,
      password: device.password,
      clientId: device.serial,
      reconnectPeriod: 0,
    });
    try {
      for (let seq = 1; seq <= 20; seq++) {
        await client.publishAsync(
          deviceTopic(device.serial, 'telemetry'),
          encodePayload(reading(seq, new Date(), 0.1)),
          { qos: 1 },
        );
        // No waiting: the PUBACK came, so the reading is already there.
        const rows = await t.db
          .select({ seq: telemetryReadings.seq })
          .from(telemetryReadings)
          .where(readingsOfFlowbox(device.flowboxId));
        expect(rows).toHaveLength(seq);
      }
    } finally {
      await client.endAsync(true);
    }
  });
});
