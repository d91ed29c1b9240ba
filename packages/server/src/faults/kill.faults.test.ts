import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
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
 * The server killed with SIGKILL, twice, while devices send readings and events through its
 * embedded broker (docs/reliability.md "Readings: what is guaranteed"). A device keeps each message
 * until its PUBACK, which the server sends only once the message is committed; so whatever the
 * moment of the kill, every reading and event sent is stored exactly once, the rollups equal the
 * raw readings, and the restarted process serves.
 */

const DEVICES = 4;
const SEND_EVERY_MS = 10;
const KILLS = 2;

describe.runIf(process.env.FLOWBOX_TEST_PG)('the server killed (kill -9) while devices send', () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let side: Database | undefined;
  const devices: KnownDevice[] = [];

  beforeAll(async () => {
    database = await throwawayDatabase('fbx_kill');
    const mqttPort = await freePort();
    server = new ServerProcess({ databaseUrl: database.url, port: await freePort(), mqttPort });
    await server.start();
    side = await openDatabase({
      databaseUrl: database.url,
      dataDir: null,
      onConnectionError: () => undefined,
    });
    const zones = await createZones(side.db, 'Europe/Paris', DEVICES);
    // A week back: every reading a minute after the one before stays in the past (not dropped as future).
    const start = Date.now() - 7 * 86_400_000;
    for (const zone of zones) {
      const paired = await pairDirectly(side.db, zone);
      devices.push(new KnownDevice(`mqtt://127.0.0.1:${mqttPort}`, paired.serial, paired.password, start));
    }
    await until('devices connected', () => devices.every((d) => d.connected));
  });

  afterAll(async () => {
    for (const device of devices) await device.close();
    await server?.stop();
    await side?.close();
    await database?.drop();
  });

  it('stores every reading and event sent exactly once, and serves again after each restart', async () => {
    let sent = 0;
    const sending = setInterval(() => {
      for (const device of devices) {
        device.sendReading();
        if (sent % 25 === 0) device.sendEvent();
      }
      sent += 1;
    }, SEND_EVERY_MS);
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const acked = devices.reduce((n, d) => n + d.acked, 0);
        await server.kill();
        // Messages go on being published (and queued by the devices) while the server is gone.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await server.start();
        expect(acked, 'readings were acknowledged before the kill').toBeGreaterThan(0);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      clearInterval(sending);
    }
    expect(server.starts).toBe(KILLS + 1);
    for (const device of devices) await device.settled(120_000);
    await expectAllStored(database.url, devices, { events: true });
    expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
    const readings = devices.reduce((n, d) => n + d.readings.size, 0);
    const events = devices.reduce((n, d) => n + d.events.size, 0);
    console.info(
      `kill -9 ×${KILLS}: ${readings} readings and ${events} events sent by ${DEVICES} devices, each stored once`,
    );
  });
});
