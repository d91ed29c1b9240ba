import { deviceTopic, encodePayload } from '@flowbox/shared';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMessaging, until } from '../flowboxes/testing.ts';
import type { DeviceMessaging } from '../mqtt/messaging.ts';
import { createZones, pairDirectly, reading, type TelemetryZone } from '../telemetry/testing.ts';
import {
  createTestApp,
  createWorld,
  freePort,
  loginAs,
  type ApiClient,
  type TestApp,
} from '../test/harness.ts';
import { listenForScrapes } from './metrics.ts';

/*
 * Prometheus metrics (docs/operations.md "Monitoring"): the text format at /metrics, reachable only
 * where the operator allows it (METRICS_TOKEN on the main port, or METRICS_PORT), read from the
 * counters the server keeps.
 */
const TOKEN = 'metrics-token-0123456789';

type Series = { name: string; labels: Record<string, string>; value: number };

/** Reads Prometheus' text exposition format (the one prom-client writes): one sample a line. */
function parseMetrics(text: string): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    );
    series.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return series;
}

/** The value of one series (0 when absent, as a counter not yet incremented reads). */
function valueOf(series: Series[], name: string, labels: Record<string, string> = {}): number {
  const found = series.find(
    (s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  return found?.value ?? 0;
}

describe('the /metrics endpoint with METRICS_TOKEN', () => {
  let t: TestApp;
  let messaging: DeviceMessaging & { port: number };
  let zone: TelemetryZone;
  let provider: ApiClient;

  beforeAll(async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    [zone] = (await createZones(t.db, 'Europe/Paris')) as [TelemetryZone];
    provider = await loginAs(t.app, (await createWorld(t.db)).users.provider.email);
    messaging = await startMessaging(t, undefined, undefined, {
      writer: { onBatchWritten: t.services.deviceMetrics.batchWritten },
    });
  });
  afterAll(async () => {
    await messaging.close();
    await t.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: res.body, series: parseMetrics(res.body) };
  };

  it('refuses a scrape without the token or with a wrong one (401), however close the guess', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
    ]) {
      const res = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('flowbox_');
    }
  });

  it('times requests by route pattern and status, never by the URL with its ids', async () => {
    const { app } = t;
    const zoneUrl = `/v1/customers/${zone.customerId}/zones/list`;
    const label = { route: '/v1/customers/:customerId/zones/list', method: 'GET', status_code: '200' };
    const before = valueOf((await scrape()).series, 'flowbox_http_request_duration_seconds_count', label);
    expect((await provider.get(zoneUrl)).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/users/me' })).statusCode).toBe(401);
    const { text, series } = await scrape();
    expect(valueOf(series, 'flowbox_http_request_duration_seconds_count', label)).toBe(before + 1);
    expect(
      valueOf(series, 'flowbox_http_request_duration_seconds_count', {
        route: '/v1/users/me',
        status_code: '401',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(zone.customerId);
    // The rest of the instance: its jobs, emails, live streams and process.
    const has = (name: string, labels: Record<string, string>) =>
      series.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    expect(has('flowbox_job_passes_total', { job: 'subscription_renewals' })).toBe(true);
    expect(has('flowbox_emails_total', { outcome: 'failed' })).toBe(true);
    expect(valueOf(series, 'flowbox_live_connections')).toBe(0);
    expect(valueOf(series, 'flowbox_process_resident_memory_bytes')).toBeGreaterThan(0);
    if (process.env.FLOWBOX_TEST_PG) expect(valueOf(series, 'flowbox_db_pool_max')).toBeGreaterThan(0);
  });

  it('counts device messages in and out, the connected devices and the telemetry batches', async () => {
    const device = await pairDirectly(t.db, zone);
    const before = (await scrape()).series;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${messaging.port}`, {
      username: device.serial,
      password: device.password,
      clientId: device.serial,
      connectTimeout: 5000,
    });
    try {
      await client.publishAsync(
        deviceTopic(device.serial, 'telemetry'),
        encodePayload(reading(1, new Date(Date.now() - 120_000))),
        { qos: 1 },
      );
      await client.publishAsync(deviceTopic(device.serial, 'telemetry'), 'not json', { qos: 1 });
      const after = await until(async () => {
        const { series } = await scrape();
        return valueOf(series, 'flowbox_telemetry_readings_total', { outcome: 'stored' }) >
          valueOf(before, 'flowbox_telemetry_readings_total', { outcome: 'stored' }) &&
          valueOf(series, 'flowbox_mqtt_messages_dropped_total', { reason: 'not_json' }) >
            valueOf(before, 'flowbox_mqtt_messages_dropped_total', { reason: 'not_json' })
          ? series
          : undefined;
      }, 20_000);
      expect(valueOf(after, 'flowbox_mqtt_messages_received_total')).toBeGreaterThanOrEqual(
        valueOf(before, 'flowbox_mqtt_messages_received_total') + 2,
      );
      expect(valueOf(after, 'flowbox_mqtt_connected_devices')).toBe(1);
      expect(valueOf(after, 'flowbox_telemetry_batch_duration_seconds_count')).toBeGreaterThan(
        valueOf(before, 'flowbox_telemetry_batch_duration_seconds_count'),
      );
      // Telemetry is acknowledged to the device by the confirmations the server publishes.
      await until(async () => {
        const { series } = await scrape();
        return valueOf(series, 'flowbox_mqtt_messages_sent_total', { outcome: 'published' }) >
          valueOf(before, 'flowbox_mqtt_messages_sent_total', { outcome: 'published' })
          ? true
          : undefined;
      }, 20_000);
      expect(valueOf(after, 'flowbox_telemetry_readings_pending', { state: 'queued' })).toBe(0);
    } finally {
      await client.endAsync(true);
    }
    await until(async () =>
      valueOf((await scrape()).series, 'flowbox_mqtt_connected_devices') === 0 ? true : undefined,
    );
  });

  it('shows the same counters to a provider manager in the JSON document (one source of truth)', async () => {
    const json = (await provider.get('/v1/metrics')).json();
    const { series } = await scrape();
    expect(valueOf(series, 'flowbox_mqtt_messages_received_total')).toBe(json.ingest.received);
    expect(valueOf(series, 'flowbox_telemetry_readings_total', { outcome: 'stored' })).toBe(
      json.telemetry.stored,
    );
  });

  it('serves the same registry on METRICS_PORT without a token, and nothing else there', async () => {
    const port = await freePort();
    const scrapes = await listenForScrapes(t.services.metrics, port, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(valueOf(parseMetrics(await res.text()), 'flowbox_mqtt_messaging_up')).toBe(1);
      expect((await fetch(`http://127.0.0.1:${port}/v1/health`)).status).toBe(404);
    } finally {
      await scrapes.close();
    }
  });
});

describe('the /metrics endpoint without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404, token or not: metrics are off on the main port unless the operator says so', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('errors.not_found');
    }
  });

  it('keeps a registry of its own: another instance in the same process counts apart', async () => {
    await t.app.inject({ url: '/v1/users/me' });
    const text = await t.services.metrics.scrape();
    const count = valueOf(parseMetrics(text), 'flowbox_http_request_duration_seconds_count', {
      route: '/v1/users/me',
    });
    expect(count).toBe(1);
  });
});
