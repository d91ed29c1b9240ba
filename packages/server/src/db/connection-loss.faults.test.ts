import { mkdtempSync } from 'node:fs';
import { PROTOCOL_VERSION } from '@flowbox/shared';
import { inArray } from 'drizzle-orm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  expectAllStored,
  KnownDevice,
  sessions,
  terminateBackends,
  throwawayDatabase,
  until,
  type ThrowawayDatabase,
} from '../faults/devices.testing.ts';
import { startServer, type RunningServer } from '../server.ts';
import { freePort } from '../test/harness.ts';
import { createZones, pairDirectly } from '../telemetry/testing.ts';
import { openDatabase, type Database } from './client.ts';
import { deviceCommands } from './schema.ts';

/*
 * Issue #13 item 3 and #20 item 3: PostgreSQL ending the server's sessions (pg_terminate_backend,
 * a restart, a failover) while devices send readings, events and command acks. Every pooled
 * connection breaks, idle or inside a batch's transaction, and the LISTEN connection too: the
 * process must live on, store every message the devices keep sending (none acknowledged before it
 * is stored), and listen again.
 */

const DEVICES = 3;

describe.runIf(process.env.FLOWBOX_TEST_PG)('database connections terminated during ingest', () => {
  let database: ThrowawayDatabase;
  let server: RunningServer | undefined;
  let side: Database;
  let brokerUrl: string;
  let baseUrl: string;
  const devices: KnownDevice[] = [];
  const flowboxIds: string[] = [];

  beforeAll(async () => {
    database = await throwawayDatabase('fbx_connloss');
    const mqttPort = await freePort();
    server = await startServer(
      loadConfig({
        DATABASE_URL: database.url,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'fbx-connloss-')),
        // Polled every 20 ms: faster than the production rate limit, which counts every request.
        RATE_LIMIT_PER_MINUTE: '1000000',
        PORT: String(await freePort()),
        MQTT_PORT: String(mqttPort),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      }),
    );
    baseUrl = server.url;
    brokerUrl = `mqtt://127.0.0.1:${mqttPort}`;
    side = await openDatabase({
      databaseUrl: database.url,
      dataDir: null,
      onConnectionError: () => undefined,
    });
    const zones = await createZones(side.db, 'Europe/Paris', DEVICES);
    const start = Date.now() - 6 * 3600_000;
    for (const zone of zones) {
      const paired = await pairDirectly(side.db, zone);
      flowboxIds.push(paired.flowboxId);
      devices.push(new KnownDevice(brokerUrl, paired.serial, paired.password, start));
    }
    await until('devices connected', () => devices.every((d) => d.connected));
  });
  afterAll(async () => {
    for (const device of devices) await device.close();
    await server?.close();
    await side?.close();
    await database?.drop();
  });

  it('lives on, stores every reading, event and ack sent, and listens again', async () => {
    // A command waiting for its ack per device and round: each ack arrives while sessions end.
    const commands = new Map<KnownDevice, string[]>();
    const later = new Date(Date.now() + 3600_000);
    for (const [i, device] of devices.entries()) {
      const rows = await side.db
        .insert(deviceCommands)
        .values(
          Array.from({ length: 5 }, () => ({
            flowboxId: flowboxIds[i]!,
            name: 'valve_close' as const,
            params: {},
            origin: 'system' as const,
            issuedAt: new Date(),
            expiresAt: later,
            nextAttemptAt: later,
            status: 'sent' as const,
          })),
        )
        .returning({ id: deviceCommands.id });
      commands.set(
        device,
        rows.map((r) => r.id),
      );
    }
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20; i++) {
        for (const device of devices) {
          device.sendReading();
          if (i % 5 === 0) device.sendEvent();
          if (i === 10) {
            const command_id = commands.get(device)![round]!;
            const at = new Date().toISOString();
            device.send('acks', { v: PROTOCOL_VERSION, command_id, at, result: 'done', reason: null });
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Sessions end while batches are in their transactions, and again when idle.
      terminated += await terminateBackends(database.name);
      await new Promise((resolve) => setTimeout(resolve, 50));
      terminated += await terminateBackends(database.name);
    }
    expect(terminated).toBeGreaterThan(0);
    for (const device of devices) await device.settled();
    await expectAllStored(database.url, devices, { events: true });
    const acked = await side.db
      .select({ status: deviceCommands.status })
      .from(deviceCommands)
      .where(inArray(deviceCommands.id, [...commands.values()].flat()));
    expect(acked.map((c) => c.status)).toEqual(Array<string>(5 * DEVICES).fill('done'));

    // Still serving, and listening again (live updates reach this instance's browsers).
    await until('health ok', async () => (await fetch(`${baseUrl}/v1/health`)).status === 200);
    await until('LISTEN again', async () =>
      (await sessions(database.name)).some((s) => s.query.includes('LISTEN flowbox_live')),
    );

    // No connection was lost to the pool for good: a transaction whose BEGIN met a dead connection
    // used to keep its client checked out, and the graceful stop (pool.end) then waited for ever.
    const closing = server!.close();
    server = undefined;
    await Promise.race([
      closing,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the server did not stop in 15 s')), 15_000),
      ),
    ]);
  });
});
