// `npm run bench`: runs every benchmark under bench/ (or those named) and lets each print its figures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const wanted = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && (!wanted.length || wanted.some((w) => f.startsWith(w))))
  .sort();
let failed = false;
for (const file of benches) {
  console.log(`\n### bench/${file}`);
  const res = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join('bench', file)], {
    cwd: root,
    stdio: 'inherit',
  });
  failed ||= res.status !== 0;
}
process.exit(failed ? 1 : 0);
