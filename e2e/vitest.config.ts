import { defineConfig } from 'vitest/config';
import { sourceConditions } from '../scripts/conditions.mjs';

export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser at a time: the machine has two cores and the server runs beside it.
    fileParallelism: false,
  },
});
