import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../packages/server/src/config.ts';
import { startServer } from '../packages/server/src/server.ts';
import { freePort } from '../packages/server/src/test/harness.ts';

/** Access tokens live this long in the browser tests, so a test can watch one expire. */
export const E2E_ACCESS_TOKEN_TTL = 5;

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The embedded broker, for tests that run simulated flowboxes against the server. */
    mqttUrl: string;
    /** The local tile server the maps load (MAP_TILE_URL): how many tiles it has served. */
    tileServerUrl: string;
  }
}

/** The real product, as `npm start` runs it: embedded PGlite, embedded broker, demo data, built web app. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fbx-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  // Maps load their tiles from here, never from the internet (docs/operations.md "Maps").
  const tiles = await startTileServer();
  const config = loadConfig({
    MAP_TILE_URL: `${tiles.url}/tiles/{z}/{x}/{y}.png`,
    DATA_DIR: dataDir,
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: 'warn',
    DEMO: 'true',
    // The demo fleet's leak episodes would close the washrooms' water under other tests' feet.
    DEMO_LEAKS: 'false',
    // Every browser and API call of the suite comes from 127.0.0.1, faster than any one person.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Tests that register residents say which visitor they are (X-Forwarded-For), so the
    // per-address registration limit holds for each of them, not for the suite as one client.
    TRUST_PROXY: 'loopback',
    ACCESS_TOKEN_TTL: String(E2E_ACCESS_TOKEN_TTL),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  // Web Push goes to a push service on loopback that the push test starts (docs/push.md "Tests"):
  // its browser's endpoint is plain http, and nothing is ever sent off the machine.
  const server = await startServer(Object.assign(config, { pushTestEndpoints: true }));
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('mqttUrl', `mqtt://127.0.0.1:${mqttPort}`);
  project.provide('tileServerUrl', tiles.url);
  return async () => {
    await server.close();
    await tiles.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** A 2x2 PNG: every tile of the local tile server. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGPgW/oSiBggFAApsgZx/T7YngAAAABJRU5ErkJggg==',
  'base64',
);

/** A tiny tile server on loopback: a PNG for any /tiles/z/x/y.png, and /count tells how many it served. */
async function startTileServer(): Promise<{ url: string; close: () => Promise<void> }> {
  let served = 0;
  const server = createServer((request, response) => {
    if (request.url === '/count') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served }));
      return;
    }
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      served++;
      response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(TILE);
      return;
    }
    response.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
