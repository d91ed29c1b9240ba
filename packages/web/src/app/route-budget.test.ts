import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_BUDGET_KB,
  readManifest,
  ROUTE_MODULES,
  routeFiles,
  routeWeights,
  type Manifest,
} from '../../build/route-weights.ts';

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

/** The files of a route that hold zod (by its error class, whatever the chunk is named) or French texts. */
function heavyFiles(manifest: Manifest, modules: readonly string[]): string[] {
  const french = ['src/lib/i18n/fr.ts', 'src/lib/i18n/features-fr.ts'].map((key) => manifest[key]?.file);
  expect(french.every(Boolean)).toBe(true);
  return routeFiles(manifest, modules).filter(
    (file) =>
      french.includes(file) ||
      (file.endsWith('.js') && readFileSync(join(outDir, file), 'utf8').includes('ZodError')),
  );
}

describe('the first screen (issue 16)', () => {
  it(`/login loads at most ${LOGIN_BUDGET_KB} KB of gzipped JavaScript and CSS`, async () => {
    const weights = await routeWeights(outDir);
    expect(weights['/login']).toBeLessThanOrEqual(LOGIN_BUDGET_KB);
  });

  it('/login fetches neither the shell, nor zod, nor the charts, nor the signed-in screens, nor French', async () => {
    const files = routeFiles(await readManifest(outDir), ['src/features/auth/login-pages.ts']);
    for (const heavy of [
      /AppLayout/,
      /home-/,
      /zod/,
      /echarts/,
      /features-/,
      /dashboard/,
      /\/fr-/,
      /messages-fr/,
    ]) {
      expect(files.filter((file) => heavy.test(file))).toEqual([]);
    }
    expect(heavyFiles(await readManifest(outDir), ['src/features/auth/login-pages.ts'])).toEqual([]);
  });

  // A feature's deep import once brought a form, hence zod, into the dashboard; French came with
  // English in one chunk. Both load later or never for an English reader (the live channel's zod,
  // after the page shows).
  it('the dashboard fetches neither zod nor French texts before it shows, in English', async () => {
    expect(heavyFiles(await readManifest(outDir), ROUTE_MODULES['/ (dashboard)'])).toEqual([]);
  });

  // Each file is a request and a modulepreload on a phone's network: the home's own modules come
  // as one chunk (build/home-chunk.ts), where the bundler alone made some forty files of 1-2 KB.
  it("the dashboard needs at most 16 files of JavaScript and CSS, the app's own modules in one home chunk", async () => {
    const files = routeFiles(await readManifest(outDir), ROUTE_MODULES['/ (dashboard)']);
    expect(files.length).toBeLessThanOrEqual(16);
    expect(files.filter((file) => /\/home-[\w-]+\.js$/.test(file))).toHaveLength(1);
  });
});
