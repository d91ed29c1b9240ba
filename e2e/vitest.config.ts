import { defineConfig } from 'vitest/config';
import { sourceConditions } from '../scripts/conditions.mjs';

export default defineConfig({
  ...sourceConditions,
  test: {
    include: ['e2e/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A screen waited for by polling gets the time a loaded machine needs (Vitest's default is 1 s:
    // enough on a quiet machine, a coin toss on a busy CI one); a wait that names its own keeps it.
    expect: { poll: { timeout: 15_000 } },
    // One file at a time: the files of a run share its server and demo data. `npm test` runs two
    // such runs side by side, each with its own server (scripts/test.mjs, browserTestGroups).
    fileParallelism: false,
    // A file's imports (Playwright, the simulator, the helpers) stay loaded for the next file, as
    // the server's tests do: imported again for each, they took 45 to 56 s of a group's run. Each
    // file still makes its own browser, pages and data.
    isolate: false,
  },
});
