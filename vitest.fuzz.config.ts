import { defineConfig } from 'vitest/config';

// The `fuzz` step of `npm test` (docs/fuzz.md): every route of docs/openapi.json called as each role
// with values generated from its schemas and their edges, on PGlite and on PostgreSQL (FLOWBOX_TEST_PG).
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.fuzz.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
