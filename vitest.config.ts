import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { sourceConditions } from './scripts/conditions.mjs';

// The fault, fuzz and deploy suites are steps of their own (vitest.faults.config.ts, scripts/test.mjs).
const exclude = [
  ...configDefaults.exclude,
  '**/*.faults.test.ts',
  '**/*.fuzz.test.ts',
  '**/*.deploy.test.ts',
];

/**
 * The server's test files that replace a module (`vi.mock`): they need a module graph of their own.
 * The server's other files share one per worker (docs/decisions.md "CI's time budget").
 */
const serverSource = fileURLToPath(new URL('packages/server/src/', import.meta.url));
const ownModuleGraph = readdirSync(serverSource, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.test.ts'))
  .filter((path) => /\bvi\.(do)?mock\(/.test(readFileSync(join(serverSource, path), 'utf8')))
  .map((path) => `packages/server/src/${path}`);

/**
 * Files this run leaves to another step (scripts/test.mjs `POSTGRES_ONCE`: run once, on PostgreSQL),
 * comma-separated: Vitest's `--exclude` on the command line does not reach the projects below.
 */
const runElsewhere = (process.env.FLOWBOX_TEST_ELSEWHERE ?? '').split(',').filter(Boolean);

export default defineConfig({
  ...sourceConditions,
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          exclude: [...exclude, ...ownModuleGraph, ...runElsewhere],
          // Each file builds its own app and database; what a worker keeps between files is the
          // imported code, which isolation imported again for every file: 48 % of the CPU of 16
          // server files (docs/decisions.md "CI's time budget").
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['packages/{shared,web,simulator}/src/**/*.test.ts', ...ownModuleGraph],
          exclude: [...exclude, ...runElsewhere],
        },
      },
    ],
  },
});
