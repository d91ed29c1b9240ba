// Benchmark of the API's hot paths over real HTTP: login (argon2id verify), an authenticated read
// (token check + session and user lookup), a zone's overview, and a paginated list of 1,000
// customers. The server runs in a child process (its CPU measured alone); the load generator is
// this process, with keep-alive connections (node:http, the lightest client at hand), both on this
// machine's cores. Runs on embedded PGlite and on PostgreSQL (FLOWBOX_TEST_PG, or the machine's).
// BENCH_SECONDS (5), BENCH_CLIENTS (50), BENCH_DATABASES (pglite,postgres), BENCH_PROFILE=<dir>
// writes the server's CPU profile of the measured calls there.
import { fork } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const PROFILE = process.env.BENCH_PROFILE || undefined;

type Ready = { port: number; token: string; zone: string };
type Usage = { cpuUs: number };

if (process.env.BENCH_API_ROLE === 'server') await serve();
else await main();

/** The server side: a fresh database, one provider manager, 1,000 customers and one zone. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { customers } = await import('../packages/server/src/db/schema.ts');
  const harness = await import('../packages/server/src/test/harness.ts');
  const database = await harness.openUnguardedTestDatabase();
  const { app } = await buildApp({
    config: harness.testConfig({ refreshTokenTtl: 86_400, accessTokenTtl: 3_600 }),
    db: database.db,
    logger: false,
    rateLimitPerMinute: 1_000_000_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  await harness.createUser(database.db, { email: 'bench@bench.io', role: 1 });
  const [customer] = await database.db
    .insert(customers)
    .values(Array.from({ length: 1000 }, (_, i) => ({ name: `Customer ${String(i).padStart(4, '0')}` })))
    .returning();
  const call = async (method: string, url: string, body?: object, token?: string) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      payload: body,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, string>;
  };
  const { access_token: token } = await call('POST', '/v1/users/token', {
    email: 'bench@bench.io',
    password: harness.PASSWORD,
  });
  const customerPath = `/v1/customers/${customer!.id}`;
  const site = await call('POST', `${customerPath}/sites/create`, { name: 'Bench site' }, token);
  const building = await call(
    'POST',
    `${customerPath}/sites/${site.id}/buildings/create`,
    harness.buildingBody(),
    token,
  );
  const zones = `${customerPath}/sites/${site.id}/buildings/${building.id}/zones`;
  const zone = await call('POST', `${zones}/create`, harness.zoneBody(), token);

  const profiler = PROFILE ? new (await import('node:inspector')).Session() : undefined;
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      profiler!.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  let measured = 0;
  const usage = () => {
    const cpu = process.cpuUsage();
    process.send!({ cpuUs: cpu.user + cpu.system } satisfies Usage);
  };
  process.on('message', (message: string) => {
    void (async () => {
      if (message === 'begin') {
        if (profiler) {
          profiler.connect();
          await post('Profiler.enable');
          await post('Profiler.start');
        }
        usage();
      } else if (message === 'end') {
        usage();
        if (profiler) {
          const { profile } = (await post('Profiler.stop')) as { profile: object };
          mkdirSync(PROFILE!, { recursive: true });
          const name = `api-server-${database.driver}-${process.pid}-${++measured}.cpuprofile`;
          writeFileSync(join(PROFILE!, name), JSON.stringify(profile));
          profiler.disconnect();
        }
      } else if (message === 'stop') {
        await app.close();
        await database.close();
        process.exit(0);
      }
    })();
  });
  process.once('disconnect', () => process.exit(1));
  process.send!({ port, token: token!, zone: `${zones}/${zone.id}/info` } satisfies Ready);
}

type Figures = {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  cpuUs: number;
};

async function main(): Promise<void> {
  console.log(
    `API benchmark: ${SECONDS} s per call, ${CLIENTS} concurrent clients on keep-alive connections ` +
      `(logins: 2); server in a child process, load generator in this one, both on this machine's ` +
      `${availableParallelism()} cores; Node ${process.version}`,
  );
  const pgUrl = process.env.FLOWBOX_TEST_PG || 'postgres://postgres@127.0.0.1:5432/postgres';
  if (DATABASES.includes('pglite')) await run('Embedded PGlite', { FLOWBOX_TEST_PG: '' });
  if (DATABASES.includes('postgres'))
    await run(`PostgreSQL (${new URL(pgUrl).host}, throw-away database)`, { FLOWBOX_TEST_PG: pgUrl }).catch(
      (error: unknown) => console.log(`\nPostgreSQL: not measured (${String(error)})`),
    );
  process.exit(0);
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const child = fork(import.meta.filename, [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, ...env, BENCH_API_ROLE: 'server' },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`))),
  );
  const next = <T>() => Promise.race([new Promise<T>((resolve) => child.once('message', resolve)), exited]);
  const ready = await next<Ready>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const send = (method: string, path: string, body?: string, token: string | null = ready.token) =>
    new Promise<number>((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body) headers['content-type'] = 'application/json';
      const request = http.request(
        { host: '127.0.0.1', port: ready.port, method, path, agent, headers },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        },
      );
      request.once('error', reject);
      request.end(body);
    });
  const measure = async (call: () => Promise<number>, clients = CLIENTS): Promise<Figures> => {
    for (let i = 0; i < clients * 4; i++) await call(); // warm-up: compiled paths, open connections
    child.send('begin');
    const before = await next<Usage>();
    const latencies: number[] = [];
    let non2xx = 0;
    const end = Date.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < end) {
          const t0 = performance.now();
          const status = await call();
          latencies.push(performance.now() - t0);
          if (status < 200 || status >= 300) non2xx++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    child.send('end');
    const after = await next<Usage>();
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return {
      requests: latencies.length,
      perSecond: latencies.length / seconds,
      p50: at(0.5),
      p99: at(0.99),
      non2xx,
      cpuUs: (after.cpuUs - before.cpuUs) / Math.max(1, latencies.length),
    };
  };
  const login = JSON.stringify({ email: 'bench@bench.io', password: 'correct-horse-1' });
  const rows: [string, Figures][] = [
    // Two clients: logins are deliberately slow (argon2id).
    ['POST /v1/users/token', await measure(() => send('POST', '/v1/users/token', login, null), 2)],
    ['GET /v1/users/me', await measure(() => send('GET', '/v1/users/me'))],
    ['GET zone overview (…/zones/{id}/info)', await measure(() => send('GET', ready.zone))],
    [
      'GET /v1/customers/list?limit=100 (1,000 customers)',
      await measure(() => send('GET', '/v1/customers/list?limit=100&offset=400')),
    ],
  ];
  console.log(`\n${label} (load average before: ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`);
  for (const [name, f] of rows) {
    console.log(
      `  ${name.padEnd(52)} ${f.perSecond.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   ` +
        `p99 ${f.p99.toFixed(1).padStart(6)} ms   server CPU ${(f.cpuUs / 1000).toFixed(2)} ms/request   ` +
        `(${f.requests} requests, ${f.non2xx} not 2xx)`,
    );
  }
  agent.destroy();
  child.send('stop');
  await exited.catch(() => undefined);
}
