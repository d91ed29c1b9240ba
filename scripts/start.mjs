// `npm start`: builds the web app when its sources changed, then runs the server (one process).
import { register } from 'tsx/esm/api';
import { ensureWebBuild } from './web-build.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Flowbox Manager needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

ensureWebBuild();
register();
await import('../packages/server/src/main.ts');
