// `npm run build`: compiles packages/shared, packages/simulator and packages/server to JavaScript
// (each package's dist/, with source maps and declarations) and builds the web app. What it
// produces runs on production dependencies only: `node packages/server/dist/main.js`
// (docs/operations.md, "Build and deploy"). `npm start` calls ensureBuild() to build only what is
// missing or older than its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureWebBuild } from './web-build.mjs';

const root = resolve(import.meta.dirname, '..');

/** In dependency order: a package's build reads the declarations of the ones before it. */
const PACKAGES = ['shared', 'simulator', 'server'];
/** Written last by a successful build of a package: its time is the build's. */
const STAMP = '.build-complete';
export const SERVER_ENTRY = join(root, 'packages/server/dist/main.js');

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.ts$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function isStale(pkg) {
  const dir = join(root, 'packages', pkg);
  const stamp = join(dir, 'dist', STAMP);
  // A deployed copy has the build and no sources (docs/operations.md): nothing to compare.
  if (!existsSync(join(dir, 'src'))) return !existsSync(join(dir, 'dist'));
  if (!existsSync(stamp)) return true;
  const sources = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((s) => join(dir, s));
  return (
    statSync(stamp).mtimeMs <
    Math.max(...sources.map(newestChange), newestChange(join(root, 'tsconfig.base.json')))
  );
}

function compile(pkg) {
  const dir = join(root, 'packages', pkg);
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  console.log(`Building packages/${pkg}...`);
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], {
    cwd: dir,
    stdio: 'inherit',
  });
  writeFileSync(join(dir, 'dist', STAMP), `${new Date().toISOString()}\n`);
}

function typescriptInstalled() {
  try {
    createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds what is missing or older than its sources (everything with `force`) and answers the
 * server's entry point (a file URL, for import()). Without dev dependencies (a production install), it runs what was built.
 */
export function ensureBuild({ force = false } = {}) {
  const stale = PACKAGES.filter((pkg) => force || isStale(pkg));
  if (stale.length && !typescriptInstalled()) {
    if (!existsSync(SERVER_ENTRY))
      throw new Error(
        'No build in packages/server/dist and no dev dependencies to make one: run `npm run build`.',
      );
    console.warn(
      'The build is older than the sources, and TypeScript is not installed: running the build as it is.',
    );
    return pathToFileURL(SERVER_ENTRY).href;
  }
  // A package's build reads the declarations of those before it: rebuild from the first stale one on.
  const first = PACKAGES.findIndex((pkg) => stale.includes(pkg));
  if (first >= 0) for (const pkg of PACKAGES.slice(first)) compile(pkg);
  if (force || existsSync(join(root, 'node_modules/vite'))) ensureWebBuild({ force });
  return pathToFileURL(SERVER_ENTRY).href;
}

if (import.meta.url === `file://${process.argv[1]}`)
  ensureBuild({ force: !process.argv.includes('--if-stale') });
