// Benchmark of the spine's hot paths over real HTTP: login (argon2id verify), an authenticated
// read (token check + session and user lookup), and a paginated customer list of 1,000 customers.
// Runs on embedded PGlite and, when reachable, on PostgreSQL (FLOWBOX_TEST_PG). Prints figures.
import { type AddressInfo } from 'node:net';
import { buildApp } from '../packages/server/src/app.ts';
import { customers } from '../packages/server/src/db/schema.ts';
import { createUser, openTestDatabase, PASSWORD, testConfig } from '../packages/server/src/test/harness.ts';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CONCURRENCY = 16;

type Figures = { requests: number; perSecond: number; p50: number; p99: number; errors: number };

async function measure(
  send: () => Promise<Response>,
  concurrency = CONCURRENCY,
  durationMs = DURATION_MS,
): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const res = await send();
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    errors,
  };
}

async function benchDriver(label: string) {
  const database = await openTestDatabase();
  const { app } = await buildApp({
    config: testConfig({ refreshTokenTtl: 86400 }),
    db: database.db,
    logger: false,
    rateLimitPerMinute: 1_000_000_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await createUser(database.db, { email: 'bench@bench.io', role: 1 });
  await database.db
    .insert(customers)
    .values(Array.from({ length: 1000 }, (_, i) => ({ name: `Customer ${String(i).padStart(4, '0')}` })));
  const json = { 'content-type': 'application/json' };
  const login = () =>
    fetch(`${base}/v1/users/token`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'bench@bench.io', password: PASSWORD }),
    });
  const { access_token } = (await (await login()).json()) as { access_token: string };
  const auth = { authorization: `Bearer ${access_token}` };

  const rows: [string, Figures][] = [
    // Few workers: logins are deliberately slow (argon2id) and throttled per address after failures only.
    ['POST /v1/users/token', await measure(login, 2)],
    ['GET /v1/users/me', await measure(() => fetch(`${base}/v1/users/me`, { headers: auth }))],
    [
      'GET /v1/customers/list?limit=100 (1,000 customers)',
      await measure(() => fetch(`${base}/v1/customers/list?limit=100&offset=400`, { headers: auth })),
    ],
  ];
  console.log(`\n${label}`);
  for (const [name, f] of rows) {
    console.log(
      `  ${name.padEnd(52)} ${f.perSecond.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(1).padStart(6)} ms   p99 ${f.p99.toFixed(1).padStart(6)} ms   (${f.requests} requests, ${f.errors} errors)`,
    );
  }
  await app.close();
  await database.close();
}

const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
console.log(
  `API benchmark: ${DURATION_MS / 1000} s per call, ${CONCURRENCY} concurrent clients (logins: 2), Node ${process.version}`,
);
delete process.env.FLOWBOX_TEST_PG;
await benchDriver('Embedded PGlite');
process.env.FLOWBOX_TEST_PG = pgUrl;
await benchDriver(`PostgreSQL (${new URL(pgUrl).host})`).catch((error: unknown) =>
  console.log(`\nPostgreSQL: not measured (${String(error)})`),
);
