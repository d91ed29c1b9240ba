#!/usr/bin/env node
// `flowbox-sim`: runs the simulator's build (`npm run build`); in a checkout not built yet, its
// TypeScript sources through tsx (a dev dependency), as the tests do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
const fromSource = process.env.FLOWBOX_SIM_FROM_SOURCE === '1';
if (!fromSource && !existsSync(built)) {
  const res = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', import.meta.filename, ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, FLOWBOX_SIM_FROM_SOURCE: '1' } },
  );
  process.exitCode = res.status ?? 1;
} else {
  const { runCli } = await import(fromSource ? '../src/cli.ts' : built.href);
  process.exitCode = await runCli(process.argv.slice(2));
}
