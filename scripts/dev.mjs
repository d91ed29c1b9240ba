// `npm run dev`: the server restarting on change (tsx watch) and the Vite dev server with hot reload.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const children = [
  spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'watch', '--conditions=source', 'packages/server/src/main.ts'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  ),
  spawn(process.execPath, [resolve(root, 'node_modules/vite/bin/vite.js')], {
    cwd: resolve(root, 'packages/web'),
    stdio: 'inherit',
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGINT'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && process.exit(code));
