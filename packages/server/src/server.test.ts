import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/index.ts';
import { startServer, type RunningServer } from './server.ts';
import { freePort } from './test/harness.ts';

async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function embeddedConfig(dataDir: string, extra: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    // Polled every 20 ms: faster than the production rate limit, which counts every request.
    RATE_LIMIT_PER_MINUTE: '1000000',
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    LOG_LEVEL: 'silent',
    ...extra,
  });
}

async function login(server: RunningServer, email: string, password: string) {
  return fetch(`${server.url}/v1/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close().catch(() => undefined);
});

// The embedded defaults (PGlite, the embedded broker) whatever the step: they run once, in the PGlite
// step, which every `npm test` runs; the PostgreSQL step runs the production services below.
describe.skipIf(process.env.FLOWBOX_TEST_PG)('npm start on embedded defaults', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fbx-start-'));

  it('serves the API over HTTP with the demo accounts and the admin from the environment', async () => {
    const metricsPort = await freePort();
    const server = await startServer(
      await embeddedConfig(dataDir, {
        FLOWBOX_ADMIN_EMAIL: 'boss@example.com',
        FLOWBOX_ADMIN_PASSWORD: 'boss-password-1',
        METRICS_PORT: String(metricsPort),
      }),
    );
    running.push(server);
    for (const account of DEMO_ACCOUNTS)
      expect((await login(server, account.email, DEMO_PASSWORD)).status).toBe(200);
    const admin = await login(server, 'boss@example.com', 'boss-password-1');
    expect(admin.status).toBe(200);
    const { access_token } = (await admin.json()) as { access_token: string };
    const created = await fetch(`${server.url}/v1/customers/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ name: 'Kept Across Restarts' }),
    });
    expect(created.status).toBe(201);
    // The jobs of one instance, counted in the metrics (jobs/): accounts are reconciled only with dynsec.
    const metrics = await fetch(`${server.url}/v1/metrics`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(Object.keys(((await metrics.json()) as { jobs: object }).jobs).sort()).toEqual([
      'alert_emails',
      'command_dispatch',
      'delivery_probe',
      'firmware_rollouts',
      'firmware_timeouts',
      'fleet_open_alert_counts',
      'heartbeat_check',
      'held_readings',
      'push_deliveries',
      'reading_partitions',
      'safety_close_supervision',
      'scheduled_closings',
      'scheduled_reports',
      'subscription_renewals',
      'water_balance_nights',
      'webhook_deliveries',
    ]);
    // The same jobs in the Prometheus text on METRICS_PORT; on the main port, no token: 404.
    const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('flowbox_job_passes_total{job="alert_emails"}');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await server.close();
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
    running.pop();
    // A first start pairs the demo fleet and writes its history (docs/performance.md "Demo start").
  }, 90_000);

  it('keeps every record after a restart, and seeds the demo only once', async () => {
    const server = await startServer(await embeddedConfig(dataDir));
    running.push(server);
    const res = await login(server, 'boss@example.com', 'boss-password-1');
    const { access_token } = (await res.json()) as { access_token: string };
    const list = await fetch(`${server.url}/v1/customers/list`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    const names = ((await list.json()) as { items: { name: string }[] }).items.map((c) => c.name);
    expect(names).toContain('Kept Across Restarts');
    expect(names.filter((n) => n === 'Acme Water Services')).toHaveLength(1);

    // The demo hierarchy: the site manager of Lyon sees its building, floors and zones with water points.
    const site = await login(server, 'site@demo.flowbox.local', DEMO_PASSWORD);
    const siteToken = ((await site.json()) as { access_token: string }).access_token;
    const get = async <T>(path: string) => {
      const answer = await fetch(`${server.url}/v1${path}`, {
        headers: { authorization: `Bearer ${siteToken}` },
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as T;
    };
    const me = await get<{ customer_id: string; site_id: string[] }>('/users/me');
    const sitePath = `/customers/${me.customer_id}/sites/${me.site_id[0]}`;
    const buildingList = await get<{ items: { id: string; name: string; zone_count: number }[] }>(
      `${sitePath}/buildings/list`,
    );
    expect(buildingList.items.map((b) => [b.name, b.zone_count])).toEqual([['Tower A', 3]]);
    const zoneList = await get<{ items: { id: string; name: string; water_point_count: number }[] }>(
      `${sitePath}/buildings/${buildingList.items[0]!.id}/zones/list`,
    );
    expect(zoneList.items.every((zone) => zone.water_point_count > 0)).toBe(true);
  });

  it('refuses MQTT connections from unknown devices on the embedded broker', async () => {
    const config = await embeddedConfig(mkdtempSync(join(tmpdir(), 'fbx-mqtt-')), { DEMO: 'false' });
    const server = await startServer(config);
    running.push(server);
    const attempt = mqtt.connectAsync(`mqtt://127.0.0.1:${config.mqttPort}`, {
      username: 'FBX-UNKNOWN',
      password: 'guess',
      reconnectPeriod: 0,
    });
    await expect(attempt).rejects.toThrow(/Not authorized|Bad username or password/i);
  });

  it('says which port is busy and how to change it', async () => {
    const held = await holdPort();
    try {
      const mqttBusy = await embeddedConfig(mkdtempSync(join(tmpdir(), 'fbx-busy-')), {
        MQTT_PORT: String(held.port),
        DEMO: 'false',
      });
      await expect(startServer(mqttBusy)).rejects.toThrow(
        `MQTT port ${held.port} is already in use (another MQTT broker, such as Mosquitto, may be running). Start on another port with MQTT_PORT=${held.port + 1} npm start`,
      );
      const httpBusy = await embeddedConfig(mkdtempSync(join(tmpdir(), 'fbx-busy-')), {
        PORT: String(held.port),
        DEMO: 'false',
      });
      await expect(startServer(httpBusy)).rejects.toThrow(
        `Port ${held.port} is already in use. Start on another port with PORT=${held.port + 1} npm start.`,
      );
    } finally {
      await held.release();
    }
    // Two start-ups on fresh embedded databases (every migration each): 30 s was too short on a
    // loaded machine.
  }, 90_000);
});

/** The production paths run in the PostgreSQL pass of `npm test`, against the machine's services. */
describe.runIf(process.env.FLOWBOX_TEST_PG)('production services', () => {
  it('applies migrations at start-up on PostgreSQL (DATABASE_URL) and ensures the provider manager', async () => {
    const name = `fbx_start_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.FLOWBOX_TEST_PG });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.FLOWBOX_TEST_PG!);
    url.pathname = `/${name}`;
    try {
      const config = await embeddedConfig(mkdtempSync(join(tmpdir(), 'fbx-pg-')), {
        DATABASE_URL: url.toString(),
        FLOWBOX_ADMIN_EMAIL: 'ops@example.com',
        FLOWBOX_ADMIN_PASSWORD: 'ops-password-1',
      });
      expect(config.demo).toBe(false);
      const server = await startServer(config);
      expect((await login(server, 'ops@example.com', 'ops-password-1')).status).toBe(200);
      expect((await login(server, DEMO_ACCOUNTS[0].email, DEMO_PASSWORD)).status).toBe(401);
      await server.close();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("connects to an external MQTT broker given by MQTT_URL (the machine's Mosquitto)", async () => {
    const config = await embeddedConfig(mkdtempSync(join(tmpdir(), 'fbx-ext-')), {
      MQTT_URL: process.env.FLOWBOX_TEST_MQTT ?? 'mqtt://127.0.0.1:1883',
      DEMO: 'false',
    });
    const server = await startServer(config);
    running.push(server);
    expect(server.messaging.describe).toBe('MQTT broker mqtt://127.0.0.1:1883');
  });
});
