// Benchmark of firmware downloads (issue 17, docs/firmware.md): BENCH_DEVICES (1,000) paired
// flowboxes, each with an update of a BENCH_IMAGE_MIB (2) MiB image, all fetch it at once over real
// HTTP with their HTTP Basic credentials, one connection each, by flowbox-sim's downloader (each
// verifies the image's size and sha256, and resumes a cut download); meanwhile one
// signed-in user calls a zone's overview in a loop. Reports the total time, the server's CPU and
// peak memory (RSS) over the downloads, and the p50/p99 of the user's call during them. The server
// runs in a child process with the product's rate limit (downloads count per device); the devices'
// downloaders run in this process. Runs on embedded PGlite and on PostgreSQL
// (BENCH_DATABASES, default pglite,postgres; FLOWBOX_TEST_PG or the machine's).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { FirmwareDownload, type AttemptOutcome } from '../packages/simulator/src/firmware-download.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const IMAGE_BYTES = Number(process.env.BENCH_IMAGE_MIB ?? 2) * 2 ** 20;
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');

type Device = { serial: string; password: string; url: string };
type Ready = { port: number; token: string; zone: string; sha256: string; devices: Device[] };
type Usage = { cpuUs: number; peakRss: number; rssBefore: number };

if (process.env.BENCH_FIRMWARE_ROLE === 'server') await serve();
else if (process.env.BENCH_FIRMWARE_ROLE === 'probe') probe();
else await main();

type ProbeTarget = { port: number; path: string; token: string };

/**
 * The user's side, in a process of its own so that the devices' sockets in the main one do not
 * delay its answers: a keep-alive connection opened (and warmed) before the downloads, then one
 * GET after the other until told to stop; its latencies (Infinity: not 200) go back to the main
 * process.
 */
function probe(): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let target: ProbeTarget | undefined;
  let running = true;
  const call = async () => {
    const t0 = performance.now();
    const status = await get(target!.port, target!.path, { authorization: `Bearer ${target!.token}` }, agent);
    return status === 200 ? performance.now() - t0 : Number.POSITIVE_INFINITY;
  };
  process.on('message', (message: ProbeTarget | 'go' | 'stop') => {
    void (async () => {
      if (message === 'stop') running = false;
      else if (message === 'go') {
        while (running) latencies.push(await call());
        process.send!(latencies, () => process.exit(0));
      } else {
        target = message;
        for (let i = 0; i < 5; i++) await call();
        process.send!('ready');
      }
    })();
  });
}

/** The server side: a fresh database, a provider manager, the devices, the image and their updates. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { firmwareUpdates } = await import('../packages/server/src/db/schema.ts');
  const harness = await import('../packages/server/src/test/harness.ts');
  const { createZones, pairDirectly } = await import('../packages/server/src/telemetry/testing.ts');
  const { firmwareForm } = await import('../packages/server/src/firmware/catalogue.testing.ts');
  const { signDownloadToken } = await import('../packages/server/src/firmware/index.ts');
  const database = await harness.openUnguardedTestDatabase(20);
  const config = harness.testConfig({ accessTokenTtl: 3_600 });
  // The product's per-address limit (1,200 a minute): the downloads count per device, the user's calls per address.
  const { app } = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  await harness.createUser(database.db, { email: 'bench@bench.io', role: 1 });
  const login = await app.inject({
    method: 'POST',
    url: '/v1/users/token',
    payload: { email: 'bench@bench.io', password: harness.PASSWORD },
  });
  const token = login.json<{ access_token: string }>().access_token;
  const bytes = randomBytes(IMAGE_BYTES);
  const form = firmwareForm(
    { version: '2.5.0', models: 'one_inch_v1', released_to: 'all' },
    bytes,
    'flowbox-one_inch_v1-2.5.0.bin',
  );
  const uploaded = await app.inject({
    method: 'POST',
    url: '/v1/firmware/images',
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${token}` },
  });
  if (uploaded.statusCode !== 201) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
  const image = uploaded.json<{ id: string; sha256: string }>();
  const [zone] = await createZones(database.db, 'Europe/Paris');
  const paired = [];
  for (let i = 0; i < DEVICES; i++) paired.push(await pairDirectly(database.db, zone!));
  const now = new Date();
  const updates = await database.db
    .insert(firmwareUpdates)
    .values(
      paired.map((device) => ({
        flowboxId: device.flowboxId,
        imageId: image.id,
        targetVersion: '2.5.0',
        state: 'requested' as const,
        origin: 'web' as const,
        stateChangedAt: now,
      })),
    )
    .returning({ id: firmwareUpdates.id, flowboxId: firmwareUpdates.flowboxId });
  const updateOf = new Map(updates.map((u) => [u.flowboxId, u.id]));
  const expiresAt = new Date(now.getTime() + 86_400_000);
  const devices = paired.map((device) => ({
    serial: device.serial,
    password: device.password,
    url: `/v1/firmware/download/${signDownloadToken(
      { serial: device.serial, imageId: image.id, updateId: updateOf.get(device.flowboxId)!, expiresAt },
      config.jwtSecret,
    )}`,
  }));
  const z = zone!;
  const zonePath = `/v1/customers/${z.customerId}/sites/${z.siteId}/buildings/${z.buildingId}/zones/${z.zoneId}/info`;

  let peakRss = 0;
  let rssBefore = 0;
  let cpuBefore = 0;
  let sampler: NodeJS.Timeout | undefined;
  const cpu = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  process.on('message', (message: string) => {
    void (async () => {
      if (message === 'begin') {
        rssBefore = peakRss = process.memoryUsage().rss;
        cpuBefore = cpu();
        sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
        process.send!('begun');
      } else if (message === 'end') {
        clearInterval(sampler);
        process.send!({ cpuUs: cpu() - cpuBefore, peakRss, rssBefore } satisfies Usage);
      } else if (message === 'stop') {
        await app.close();
        await database.close();
        process.exit(0);
      }
    })();
  });
  process.once('disconnect', () => process.exit(1));
  process.send!({ port, token, zone: zonePath, sha256: image.sha256, devices } satisfies Ready);
}

async function main(): Promise<void> {
  console.log(
    `Firmware download benchmark: ${DEVICES} devices fetch a ${IMAGE_BYTES / 2 ** 20} MiB image at once ` +
      `(one connection each, HTTP Basic), while one user calls a zone's overview in a loop; server in a ` +
      `child process, devices in this one, both on this machine's ${availableParallelism()} cores; ` +
      `Node ${process.version}`,
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
    env: { ...process.env, ...env, BENCH_FIRMWARE_ROLE: 'server' },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`))),
  );
  const next = <T>() => Promise.race([new Promise<T>((resolve) => child.once('message', resolve)), exited]);
  const ready = await next<Ready>();
  const load = loadavg()[0]!;

  const prober = fork(import.meta.filename, [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, BENCH_FIRMWARE_ROLE: 'probe' },
  });
  const fromProbe = <T>() => new Promise<T>((resolve) => prober.once('message', resolve));
  prober.send({ port: ready.port, path: ready.zone, token: ready.token } satisfies ProbeTarget);
  await fromProbe<string>();

  child.send('begin');
  await next<string>();
  const started = performance.now();
  prober.send('go');
  const results = await Promise.all(
    ready.devices.map((device) => fetchImage(ready.port, device, ready.sha256)),
  );
  const seconds = (performance.now() - started) / 1000;
  const probed = fromProbe<number[]>();
  prober.send('stop');
  const latencies = await probed;
  child.send('end');
  const usage = await next<Usage>();

  const failed = results.filter((r) => r.outcome !== 'complete' || !r.verified);
  const resumed = results.filter((r) => r.attempts > 1).length;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.log(`\n${label} (load average before: ${load.toFixed(2)})`);
  console.log(
    `  ${DEVICES} downloads of ${IMAGE_BYTES / 2 ** 20} MiB: all done in ${seconds.toFixed(1)} s ` +
      `(${((DEVICES * IMAGE_BYTES) / 2 ** 20 / seconds).toFixed(0)} MiB/s); per device p50 ` +
      `${(times[Math.floor(times.length / 2)]! / 1000).toFixed(1)} s, slowest ${(times.at(-1)! / 1000).toFixed(1)} s; ` +
      `${failed.length} failed or not verified (size and sha256, every device), ${resumed} resumed after a cut`,
  );
  console.log(
    `  server CPU ${(usage.cpuUs / 1e6).toFixed(1)} s (${((usage.cpuUs / 1e6 / seconds) * 100).toFixed(0)} % of one core); ` +
      `RSS ${mib(usage.rssBefore)} MiB before, peak ${mib(usage.peakRss)} MiB`,
  );
  console.log(
    `  GET zone overview during the downloads: ${latencies.length} calls (${latencies.filter((l) => l === Infinity).length} not 200), p50 ${at(0.5).toFixed(1)} ms, ` +
      `p99 ${at(0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
  );
  child.send('stop');
  await exited.catch(() => undefined);
}

type Result = { outcome: string; verified: boolean; attempts: number; ms: number };

/**
 * One simulated flowbox's download, by flowbox-sim's own downloader (`FirmwareDownload`, as its
 * device side runs an update): a connection of its own, every byte through the running sha256,
 * resumed with a range when cut, and the image verified against the announced size and sha256.
 */
async function fetchImage(port: number, device: Device, sha256: string): Promise<Result> {
  const t0 = performance.now();
  const download = new FirmwareDownload({
    url: `http://127.0.0.1:${port}${device.url}`,
    size: IMAGE_BYTES,
    sha256,
    serial: device.serial,
    secret: device.password,
  });
  const signal = new AbortController().signal;
  let attempts = 0;
  let outcome: AttemptOutcome;
  do {
    attempts++;
    outcome = await download.attempt(
      signal,
      () => undefined,
      () => undefined,
    );
  } while (outcome.kind === 'interrupted' && attempts < 5);
  return { outcome: outcome.kind, verified: download.verify(), attempts, ms: performance.now() - t0 };
}

function get(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
  agent: http.Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    request.once('error', reject);
    request.end();
  });
}
