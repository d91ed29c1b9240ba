import { defineConfig } from 'vitest/config';
import { sourceConditions } from './scripts/conditions.mjs';

// The `fuzz` step of `npm test` (docs/fuzz.md): every route of docs/openapi.json called as each role
// with values generated from its schemas and their edges, on PGlite and on PostgreSQL (FLOWBOX_TEST_PG).
export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['packages/*/src/**/*.fuzz.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
