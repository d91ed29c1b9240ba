import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flowbox } from '@flowbox/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { until } from '../flowboxes/testing.ts';
import { DEMO_ACCOUNTS, DEMO_FLEET_ZONES, DEMO_PASSWORD } from '../seed/index.ts';
import { startServer, type RunningServer } from '../server.ts';
import { freePort } from '../test/harness.ts';
import { FLEET_FILE } from './fleet.ts';

/*
 * Issue #4: `npm start` (demo on) runs simulated flowboxes paired to the demo zones. The real
 * server on embedded PGlite and its embedded broker on free ports, as `npm start` runs them.
 */

async function start(dataDir: string, extra: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(
    loadConfig({
      DATA_DIR: dataDir,
      // Polled every 20 ms: faster than the production rate limit, which counts every request.
      RATE_LIMIT_PER_MINUTE: '1000000',
      PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      ...extra,
    }),
  );
  running.add(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  running.delete(server);
  await server.close();
}

type Zone = { id: string; name: string; service_level: string };
type Api = <T>(path: string) => Promise<T>;

/** The customer manager's view of Acme's zones and their flowboxes. */
async function acme(server: RunningServer) {
  const login = await fetch(`${server.url}/v1/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS[1].email, password: DEMO_PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const get: Api = async <T>(path: string) => {
    const answer = await fetch(`${server.url}/v1${path}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as T;
  };
  const me = await get<{ customer_id: string }>('/users/me');
  const customer = `/customers/${me.customer_id}`;
  const zones: { path: string; zone: Zone; building: string }[] = [];
  for (const site of (await get<{ items: { id: string }[] }>(`${customer}/sites/list`)).items) {
    const buildings = await get<{ items: { id: string; name: string }[] }>(
      `${customer}/sites/${site.id}/buildings/list`,
    );
    for (const building of buildings.items) {
      const path = `${customer}/sites/${site.id}/buildings/${building.id}/zones`;
      for (const zone of (await get<{ items: Zone[] }>(`${path}/list`)).items)
        zones.push({ path: `${path}/${zone.id}`, zone, building: building.name });
    }
  }
  const flowboxesOf = async (zonePath: string) =>
    (await get<{ items: Flowbox[] }>(`${zonePath}/flowboxes/list`)).items;
  const pairingsValidated = async () =>
    (await get<{ items: unknown[] }>(`${customer}/events?action_name=pairing_validated&limit=200`)).items
      .length;
  return { get, zones, flowboxesOf, pairingsValidated };
}

/** Waits until every fleet zone has one ready flowbox that is connected and has reported its state. */
async function liveFleet(view: Awaited<ReturnType<typeof acme>>) {
  const fleetZones = view.zones.filter((z) =>
    DEMO_FLEET_ZONES.some((f) => f.building === z.building && f.zone === z.zone.name),
  );
  return until(async () => {
    const boxes = await Promise.all(fleetZones.map((z) => view.flowboxesOf(z.path)));
    const ok = boxes.every(
      (list) =>
        list.length === 1 &&
        list[0]!.pairing_state === 'ready' &&
        list[0]!.connection === 'connected' &&
        list[0]!.firmware_version !== null,
    );
    return ok ? boxes.map((list) => list[0]!) : false;
  }, 20_000);
}

const running = new Set<RunningServer>();
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbx-fleet-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const server of running) await server.close().catch(() => undefined);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the demo fleet', () => {
  const dataDir = tempDir();
  let firstIds: string[] = [];

  it('pairs a live simulated flowbox to every demo zone of Acme but the one left to pair', async () => {
    const server = await start(dataDir);
    expect(server.demoFleet.running).toBe(DEMO_FLEET_ZONES.length);
    const view = await acme(server);
    const boxes = await liveFleet(view);
    firstIds = boxes.map((b) => b.id).sort();
    expect(boxes.every((b) => b.model === 'one_inch_v1')).toBe(true);
    expect(await view.pairingsValidated()).toBe(DEMO_FLEET_ZONES.length);

    const left = view.zones.find((z) => z.zone.name === '2nd floor offices')!;
    expect(await view.flowboxesOf(left.path)).toEqual([]);
    // Every demo zone is subscribed at its seeded service level, so the one left can be paired (spec §5).
    for (const { path, zone } of view.zones) {
      const subscription = await view.get<{ current: { service_level: string } | null }>(
        `${path}/subscription/info`,
      );
      expect(subscription.current?.service_level).toBe(zone.service_level);
    }
    expect(view.zones.find((z) => z.zone.name === 'Ground floor washrooms')!.zone.service_level).toBe(
      'premium',
    );
    expect(statSync(join(dataDir, FLEET_FILE)).mode & 0o777).toBe(0o600);
    await stop(server);
  }, 90_000);

  it('signs the same flowboxes in again after a restart, without pairing them again', async () => {
    const server = await start(dataDir);
    expect(server.demoFleet.running).toBe(DEMO_FLEET_ZONES.length);
    const view = await acme(server);
    const boxes = await liveFleet(view);
    expect(boxes.map((b) => b.id).sort()).toEqual(firstIds);
    expect(await view.pairingsValidated()).toBe(DEMO_FLEET_ZONES.length);
    await stop(server);
  }, 90_000);

  it('pairs its flowboxes again, cleanly, when their secrets are lost', async () => {
    rmSync(join(dataDir, FLEET_FILE));
    const server = await start(dataDir);
    expect(server.demoFleet.running).toBe(DEMO_FLEET_ZONES.length);
    const view = await acme(server);
    const boxes = await liveFleet(view);
    expect(boxes.some((b) => firstIds.includes(b.id))).toBe(false);
    expect(await view.pairingsValidated()).toBe(2 * DEMO_FLEET_ZONES.length);
    await stop(server);
  }, 90_000);
});

describe('DEMO_FLEET=false', () => {
  it('keeps the demo data and starts no simulated flowbox', async () => {
    const server = await start(tempDir(), { DEMO_FLEET: 'false' });
    expect(server.demoFleet.running).toBe(0);
    const view = await acme(server);
    expect(view.zones.length).toBeGreaterThan(DEMO_FLEET_ZONES.length);
    for (const { path } of view.zones) expect(await view.flowboxesOf(path)).toEqual([]);
    await stop(server);
  }, 90_000);
});
