import { randomBytes } from 'node:crypto';
import { deviceTopic, encodePayload, PROTOCOL_VERSION } from '@flowbox/shared';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, flowboxReceipts } from '../db/schema.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { createZones, pairDirectly, type TelemetryZone } from '../telemetry/testing.ts';
import { startMessaging, until } from './testing.ts';

/*
 * Issue #20 item 3: a device event (a valve turned by hand, a reboot, an autotest result) or a
 * command's ack arriving while the database cannot store it must not be acknowledged and lost: it
 * stays unacknowledged and is stored once the database is back. On the embedded broker the device's
 * PUBACK itself waits for the commit; on an external broker the server's PUBACK does (the broker
 * then hands the message to the server again).
 */
const MOSQUITTO = process.env.FLOWBOX_TEST_MQTT ?? 'mqtt://127.0.0.1:1883';

describe.each([
  { broker: 'embedded', url: undefined },
  { broker: 'Mosquitto', url: MOSQUITTO },
])('a device event while the database refuses writes, through the $broker broker', ({ broker, url }) => {
  let t: TestApp;
  let messaging: DeviceMessaging & { port: number };
  let zone: TelemetryZone;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    [zone] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
    messaging = await startMessaging(t, url, url ? `stored-${randomBytes(4).toString('hex')}` : undefined);
  });
  afterAll(async () => {
    await client?.endAsync(true);
    await messaging.close();
    await t.close();
  });

  it('is not acknowledged, and is stored once when the database is back', async () => {
    const device = await pairDirectly(t.db, zone);
    client = await mqtt.connectAsync(url ?? `mqtt://127.0.0.1:${messaging.port}`, {
      username: device.serial,
      password: device.password,
      clientId: device.serial,
      reconnectPeriod: 100,
      connectTimeout: 3000,
    });
    client.on('error', () => undefined);
    // The database refuses every write of this flowbox's row, as a database going away would.
    await t.db.execute(
      sql.raw(`CREATE FUNCTION refuse_flowbox() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'database unavailable'; END $$ LANGUAGE plpgsql`),
    );
    await t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_flowbox BEFORE UPDATE ON flowboxes
      FOR EACH ROW WHEN (OLD.serial = '${device.serial}') EXECUTE FUNCTION refuse_flowbox()`),
    );
    let acknowledged = false;
    const event = {
      v: PROTOCOL_VERSION,
      seq: 1,
      at: new Date().toISOString(),
      type: 'reboot',
      reason: 'button',
    };
    const published = client
      .publishAsync(deviceTopic(device.serial, 'events'), encodePayload(event), { qos: 1 })
      .then(() => (acknowledged = true));
    try {
      await until(() => messaging.ingest.counters.not_stored >= 2, 10_000);
      // Tried (and refused) twice: the device has had no PUBACK from the embedded broker.
      if (broker === 'embedded') expect(acknowledged).toBe(false);
      expect(messaging.ingest.counters.applied).toBe(0);
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_flowbox ON flowboxes'));
      await t.db.execute(sql.raw('DROP FUNCTION refuse_flowbox'));
    }
    await published;
    await until(
      async () =>
        (await t.db.select().from(flowboxReceipts).where(eq(flowboxReceipts.flowboxId, device.flowboxId)))
          .length === 1,
      20_000,
    );
    const logged = await t.db.select().from(events).where(eq(events.objectId, device.flowboxId));
    expect(logged.map((e) => e.actionName)).toEqual(['rebooted']);
  });
});
