// `npm start`: builds the packages and the web app when their sources changed (scripts/build.mjs),
// then runs the built server (one process).
import { ensureBuild } from './build.mjs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Flowbox Manager needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}
// README "Node versions": 24 and 22 (from 22.13) are supported; Node 20 still runs it, out of support.
if (!(major >= 24 || (major === 22 && minor >= 13)))
  console.warn(
    `Node.js ${process.versions.node} runs Flowbox Manager but is not a supported version: use Node 24 LTS (or 22).`,
  );

await import(ensureBuild());
