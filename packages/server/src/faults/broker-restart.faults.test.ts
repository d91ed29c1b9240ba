import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { aclOf, roleOf } from '../mqtt/device-accounts.ts';
import { dynsecPlugin, startTestMosquitto, type TestMosquitto } from '../mqtt/mosquitto.testing.ts';
import { createZones, pairDirectly } from '../telemetry/testing.ts';
import { freePort } from '../test/harness.ts';
import {
  expectAllStored,
  KnownDevice,
  throwawayDatabase,
  until,
  type ThrowawayDatabase,
} from './devices.testing.ts';
import { ServerProcess } from './server-process.testing.ts';

/*
 * An external Mosquitto restarted twice while devices send (issue #13 item 2, docs/reliability.md
 * "Broker restarts and the end-to-end confirmation"), with and without persistence. A broker's
 * PUBACK is not the server's commit: a broker restarted without persistence forgets what it had
 * acknowledged, and none keeps what reaches a shared subscription with no member. Devices keep each
 * reading until the server confirms it (flowbox/{serial}/confirm) and send again what stays
 * unconfirmed; the server subscribes again on every connection. So: 0 readings lost, 0 doubled.
 */

const DEVICES = 3;
const SEND_EVERY_MS = 10;
const RESTARTS = 2;
const runs = dynsecPlugin() !== null || process.env.CI === 'true';

describe.runIf(process.env.FLOWBOX_TEST_PG && runs)(
  'an external Mosquitto restarted while devices send',
  () => {
    let database: ThrowawayDatabase | undefined;
    let broker: TestMosquitto | undefined;
    let server: ServerProcess | undefined;
    let side: Database | undefined;
    const devices: KnownDevice[] = [];

    afterEach(async () => {
      for (const device of devices.splice(0)) await device.close();
      await server?.stop();
      await side?.close();
      await broker?.close();
      await database?.drop();
      server = side = broker = database = undefined;
    });

    it.each([
      ['with persistence', true],
      ['without persistence', false],
    ])('%s: every reading sent is stored exactly once', async (_, persistence) => {
      database = await throwawayDatabase('fbx_brokerrestart');
      broker = await startTestMosquitto({ persistence });
      server = new ServerProcess({
        databaseUrl: database.url,
        port: await freePort(),
        mqttPort: await freePort(),
        env: {
          MQTT_URL: broker.serverUrl,
          // A stable client id: with persistence, the broker keeps the server's session across its restart.
          MQTT_CLIENT_ID: `fbx-fault-${randomBytes(4).toString('hex')}`,
        },
      });
      await server.start();
      side = await openDatabase({
        databaseUrl: database.url,
        dataDir: null,
        onConnectionError: () => undefined,
      });
      const start = Date.now() - 7 * 86_400_000;
      for (const zone of await createZones(side.db, 'Europe/Paris', DEVICES)) {
        const paired = await pairDirectly(side.db, zone);
        const answers = await broker.control([
          {
            command: 'createRole',
            rolename: roleOf(paired.serial),
            acls: aclOf({ role: 'device', serial: paired.serial }),
          },
          {
            command: 'createClient',
            username: paired.serial,
            password: paired.password,
            clientid: paired.serial,
            roles: [{ rolename: roleOf(paired.serial) }],
          },
        ]);
        expect(answers.filter((a) => a.error)).toEqual([]);
        devices.push(
          new KnownDevice(broker.url, paired.serial, paired.password, start, {
            confirmations: true,
            confirmTimeoutMs: 3000,
          }),
        );
      }
      await until('devices connected', () => devices.every((d) => d.connected));

      const sending = setInterval(() => {
        for (const device of devices) device.sendReading();
      }, SEND_EVERY_MS);
      try {
        for (let restart = 0; restart < RESTARTS; restart++) {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await broker.stop();
          await new Promise((resolve) => setTimeout(resolve, 300));
          await broker.start();
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        clearInterval(sending);
      }
      for (const device of devices) await device.settled(120_000);
      expect(devices.reduce((n, d) => n + d.confirmed, 0)).toBe(
        devices.reduce((n, d) => n + d.readings.size, 0),
      );
      await expectAllStored(database.url, devices);
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
      const readings = devices.reduce((n, d) => n + d.readings.size, 0);
      const acked = devices.reduce((n, d) => n + d.acked, 0);
      console.info(
        `Mosquitto ${persistence ? 'with' : 'without'} persistence restarted ×${RESTARTS}: ${readings} readings, ` +
          `${acked} PUBACKs (${acked - readings} for readings sent again), each reading stored once`,
      );
    });
  },
);
