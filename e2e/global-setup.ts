import { mkdtempSync, rmSync } from 'node:fs';
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
  }
}

/** The real product, as `npm start` runs it: embedded PGlite, embedded broker, demo data, built web app. */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fbx-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: 'warn',
    DEMO: 'true',
    // The demo fleet's leak episodes would close the washrooms' water under other tests' feet.
    DEMO_LEAKS: 'false',
    // Every browser and API call of the suite comes from 127.0.0.1, faster than any one person.
    RATE_LIMIT_PER_MINUTE: '1000000',
    ACCESS_TOKEN_TTL: String(E2E_ACCESS_TOKEN_TTL),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  const server = await startServer(config);
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('mqttUrl', `mqtt://127.0.0.1:${mqttPort}`);
  return async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
