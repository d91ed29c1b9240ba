// `npm start`: builds the packages and the web app when their sources changed (scripts/build.mjs),
// then runs the built server (one process).
import { ensureBuild } from './build.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Flowbox Manager needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

await import(ensureBuild());
