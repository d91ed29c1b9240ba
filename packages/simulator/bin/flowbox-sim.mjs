#!/usr/bin/env node
// `flowbox-sim`: runs the simulator's TypeScript through tsx, like `npm start` runs the server.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
