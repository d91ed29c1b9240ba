import { defineConfig } from 'vitest/config';
import { sourceConditions } from './scripts/conditions.mjs';

// The `faults` step of `npm test` (docs/reliability.md): the server killed, its database connections
// terminated and the external broker restarted while simulated devices send known readings. One file
// at a time: each case starts its own server processes, databases and brokers on free ports.
export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['packages/*/src/**/*.faults.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
