import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_BUDGET_KB, readManifest, routeFiles, routeWeights } from '../../build/route-weights.ts';

const webRoot = fileURLToPath(new URL('../..', import.meta.url));
let outDir: string;

// Builds the app as production does, into a directory of its own, and weighs what /login fetches.
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'fbx-web-budget-'));
  // Vitest sets NODE_ENV=test, with which Vite would bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildForProduction();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}, 180_000);

async function buildForProduction() {
  await build({
    root: webRoot,
    configFile: join(webRoot, 'vite.config.ts'),
    logLevel: 'error',
    mode: 'production',
    build: { outDir, emptyOutDir: true },
  });
}

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the first screen (issue 16)', () => {
  it(`/login loads at most ${LOGIN_BUDGET_KB} KB of gzipped JavaScript and CSS`, async () => {
    const weights = await routeWeights(outDir);
    expect(weights['/login']).toBeLessThanOrEqual(LOGIN_BUDGET_KB);
  });

  it('/login fetches neither the shell, nor zod, nor the charts, nor the signed-in screens, nor French', async () => {
    const files = routeFiles(await readManifest(outDir), ['src/features/auth/login-pages.ts']);
    for (const heavy of [/AppLayout/, /zod/, /echarts/, /features-/, /dashboard/, /\/fr-/, /messages-fr/]) {
      expect(files.filter((file) => heavy.test(file))).toEqual([]);
    }
  });
});
