import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // The fault and fuzz suites are steps of their own (vitest.faults.config.ts, scripts/test.mjs).
    exclude: [...configDefaults.exclude, '**/*.faults.test.ts', '**/*.fuzz.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
