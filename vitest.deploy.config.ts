import { defineConfig } from 'vitest/config';
import { sourceConditions } from './scripts/conditions.mjs';

// The `deploy` step of `npm test` (docs/operations.md "Build and deploy"): the build installed with
// production dependencies only, run as two instances behind a proxy on PostgreSQL and Mosquitto.
export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['packages/*/src/**/*.deploy.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
