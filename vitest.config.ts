import { configDefaults, defineConfig } from 'vitest/config';
import { sourceConditions } from './scripts/conditions.mjs';

export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // The fault, fuzz and deploy suites are steps of their own (vitest.faults.config.ts, scripts/test.mjs).
    exclude: [...configDefaults.exclude, '**/*.faults.test.ts', '**/*.fuzz.test.ts', '**/*.deploy.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
