// Benchmark of telemetry ingest (issue #6): N simulated devices, each with its own credentials, publish
// QoS 1 readings to the embedded MQTT broker of a server process, which stores them (batch writer:
// readings, hourly and daily rollups, latest figures, one transaction per batch) and only then lets
// the broker send the PUBACK. So the publish → PUBACK round trip the devices see IS publish → committed.
// Runs on embedded PGlite, then on PostgreSQL (FLOWBOX_TEST_PG, a throw-away database). The server is a
// child process (its CPU and memory measured alone); the load generator is this process, on the same
// machine and cores. Prints figures and exits. Knobs: BENCH_SECONDS, BENCH_DEVICES, BENCH_WINDOW,
// BENCH_BATCH, BENCH_WAIT_MS, BENCH_CONCURRENCY, BENCH_ZONES.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deviceTopic, encodePayload, PROTOCOL_VERSION } from '@flowbox/shared';
import { connect, type Socket } from 'node:net';
import { connectPacket, mqttString, PacketReader, PUBACK, remainingLength } from './lib/mqtt-packets.ts';
import { pairBenchDevices, type PairedBenchDevice } from './lib/paired-devices.ts';
import { machineTicks, processCpuUs } from './lib/usage.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_S = 3;
const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
/** Unacknowledged readings a device may have at once (a device replaying its buffer pipelines). */
const WINDOW = Number(process.env.BENCH_WINDOW ?? 8);
const ZONES = Number(process.env.BENCH_ZONES ?? 100);
/** Readings/s offered in all (open loop); 0: closed loop, as many as acknowledgements allow. */
const RATE = Number(process.env.BENCH_RATE ?? 0);
const TICK_MS = 100;
const MAX_IN_FLIGHT = 100;
/** An external broker (Mosquitto) instead of the embedded one; the server then reads with CONNECTIONS. */
const MQTT_URL = process.env.BENCH_MQTT_URL || undefined;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** A directory: the server's CPU profile of the measured seconds is written there (.cpuprofile). */
const PROFILE = process.env.BENCH_PROFILE || undefined;
/** Which passes run: both by default, `postgres` or `pglite` alone. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');

type Device = PairedBenchDevice;
type Usage = {
  /** Server side, from the reading's `at` (set by the device when it published) to its batch's commit. */
  committedP50: number;
  committedP99: number;
  committed: number;
  cpuUs: number;
  /** CPU of the PostgreSQL backends serving the server's database (0 on PGlite: it is in cpuUs). */
  databaseCpuUs: number;
  rss: number;
  heap: number;
  /** PostgreSQL only: per table, rows updated and how many of them in place (HOT). */
  updates: Record<string, { updated: number; hot: number }>;
  /** PostgreSQL only: shared buffers the bench's database touched so far (its statistics). */
  buffers: number;
  stored: number;
  batches: number;
  largest: number;
};
type FromServer = { port: number; devices: Device[] } | { usage: Usage } | { closed: true };

/** The server process: database, app services, device messaging with the embedded broker. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { openUnguardedTestDatabase, testConfig, freePort } =
    await import('../packages/server/src/test/harness.ts');
  const { startDeviceMessaging } = await import('../packages/server/src/mqtt/messaging.ts');
  const database = await openUnguardedTestDatabase();
  const { app, services } = await buildApp({ config: testConfig(), db: database.db, logger: false });
  const devices = await pairBenchDevices(database.db, DEVICES, ZONES);
  const port = await freePort();
  const quiet = {
    info: () => undefined,
    warn: () => undefined,
    error: (o: object, m: string) => console.error(m, o),
  };
  // Publish → committed measured in the server too, by the rules-engine hook: works with any broker.
  let recording = false;
  const sinceAt: number[] = [];
  services.telemetry.register({
    name: 'bench',
    afterCommit: (readings) => {
      if (!recording) return;
      const now = Date.now();
      for (const r of readings) sinceAt.push(now - r.measuredAt.getTime());
    },
  });
  const messaging = await startDeviceMessaging({
    mqttUrl: MQTT_URL,
    shareGroup: `bench-${process.pid}`,
    ingestConnections: CONNECTIONS,
    port,
    host: '127.0.0.1',
    ctx: services.context,
    link: services.deviceLink,
    flowboxes: services.flowboxes,
    commands: services.commands,
    telemetry: services.telemetry,
    log: quiet,
    writer: {
      maxBatch: Number(process.env.BENCH_BATCH ?? 2000),
      maxWaitMs: Number(process.env.BENCH_WAIT_MS ?? 5),
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? (database.driver === 'postgres' ? 2 : 1)),
    },
  });
  const send = (message: FromServer) => process.send!(message);
  const databaseCpuUs = async () => {
    if (database.driver !== 'postgres') return 0;
    const { sql } = await import('drizzle-orm');
    const backends = (await database.db.execute(
      sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
    )) as unknown as { rows: { pid: number }[] };
    return backends.rows.reduce((sum, { pid }) => sum + processCpuUs(pid), 0);
  };
  // Updated in place (HOT: no new index entries) or not, per rollup and state table.
  const updates = async () => {
    if (database.driver !== 'postgres') return {};
    const { sql } = await import('drizzle-orm');
    const tables = (await database.db.execute(
      sql`SELECT relname, n_tup_upd::int AS updated, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables
        WHERE relname IN ('flowboxes', 'consumption_hourly', 'consumption_daily', 'zone_automation')`,
    )) as unknown as { rows: { relname: string; updated: number; hot: number }[] };
    return Object.fromEntries(tables.rows.map((t) => [t.relname, { updated: t.updated, hot: t.hot }]));
  };
  // Buffers read or hit: the database's work per reading counted, not timed, so machine load does
  // not change it (backends report their statistics at commit, at most once a second each).
  const buffers = async () => {
    if (database.driver !== 'postgres') return 0;
    const { sql } = await import('drizzle-orm');
    const found = (await database.db.execute(
      sql`SELECT (blks_hit + blks_read)::float8 AS n FROM pg_stat_database WHERE datname = current_database()`,
    )) as unknown as { rows: { n: number }[] };
    return Number(found.rows[0]?.n ?? 0);
  };
  const profiler = PROFILE ? new (await import('node:inspector')).Session() : undefined;
  const profile = async (message: 'start' | 'usage') => {
    if (!profiler) return;
    const post = (method: string) =>
      new Promise<unknown>((resolve, reject) =>
        profiler.post(method, (error, result) => (error ? reject(error) : resolve(result))),
      );
    if (message === 'start') {
      profiler.connect();
      await post('Profiler.enable');
      await post('Profiler.start');
      // Where the garbage comes from: allocations sampled, those already collected included.
      await post('HeapProfiler.enable');
      await new Promise<unknown>((resolve, reject) =>
        profiler.post(
          'HeapProfiler.startSampling',
          {
            samplingInterval: 16384,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        ),
      );
      return;
    }
    const { profile: taken } = (await post('Profiler.stop')) as { profile: object };
    const { profile: heap } = (await post('HeapProfiler.stopSampling')) as { profile: object };
    const file = join(PROFILE!, `ingest-server-${database.driver}-${process.pid}.cpuprofile`);
    mkdirSync(PROFILE!, { recursive: true });
    writeFileSync(file, JSON.stringify(taken));
    writeFileSync(file.replace(/cpuprofile$/, 'heapprofile'), JSON.stringify(heap));
    profiler.disconnect();
  };
  const report = async (message: 'start' | 'usage') => {
    if (message === 'usage') await profile(message);
    const databaseCpu = await databaseCpuUs();
    recording = message === 'start';
    if (recording) sinceAt.length = 0;
    const sorted = [...sinceAt].sort((a, b) => a - b);
    const q = (x: number) => sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))] ?? 0;
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    const c = messaging.telemetry.counters;
    send({
      usage: {
        committedP50: q(0.5),
        committedP99: q(0.99),
        committed: sorted.length,
        cpuUs: cpu.user + cpu.system,
        databaseCpuUs: databaseCpu,
        updates: await updates(),
        buffers: await buffers(),
        rss: memory.rss,
        heap: memory.heapUsed,
        stored: c.stored,
        batches: c.batches,
        largest: c.largest_batch,
      },
    });
    if (message === 'start') await profile(message);
  };
  process.on('message', (message: string) => {
    if (message === 'start' || message === 'usage') {
      void report(message);
    } else if (message === 'stop') {
      void (async () => {
        await messaging.close();
        await app.close();
        await database.close();
        send({ closed: true });
        process.exit(0);
      })();
    }
  });
  // The benchmark process gone (failed, interrupted): no server left behind.
  process.once('disconnect', () => process.exit(1));
  send({ port, devices });
}

async function main(): Promise<void> {
  const pgUrl = process.env.FLOWBOX_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  console.log(
    `Ingest benchmark: ${DEVICES} devices (own credentials) in ${ZONES} zones, ` +
      `${RATE > 0 ? `open loop at ${RATE} readings/s offered` : `closed loop, ${WINDOW} readings in flight per device`}, ` +
      `${WARMUP_S} s warm-up then ${SECONDS} s measured; server in a child process, load generator in this one, ` +
      `both on this machine's ${(await import('node:os')).availableParallelism()} cores; ` +
      `${MQTT_URL ? `broker ${MQTT_URL}, ${CONNECTIONS} server connections in a shared subscription` : 'embedded broker'}; ` +
      `Node ${process.version}`,
  );
  if (DATABASES.includes('pglite')) await run('Embedded PGlite', {});
  if (DATABASES.includes('postgres'))
    await run(`PostgreSQL (${new URL(pgUrl).host}, throw-away database)`, { FLOWBOX_TEST_PG: pgUrl }).catch(
      (error: unknown) => console.log(`\nPostgreSQL: not measured (${String(error)})`),
    );
  process.exit(0);
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const child = fork(import.meta.filename, [], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    env: { ...process.env, FLOWBOX_TEST_PG: '', ...env, BENCH_INGEST_ROLE: 'server' },
  });
  const inbox: FromServer[] = [];
  let waiting: (() => void) | undefined;
  child.on('message', (m: FromServer) => {
    inbox.push(m);
    waiting?.();
  });
  const failed = new Promise<never>((_, reject) =>
    child.once('exit', (code) => code !== 0 && reject(new Error(`server exited with ${code}`))),
  );
  const next = async <K extends string>(key: K): Promise<Extract<FromServer, Record<K, unknown>>> => {
    for (;;) {
      const at = inbox.findIndex((m) => key in m);
      if (at >= 0) return inbox.splice(at, 1)[0] as Extract<FromServer, Record<K, unknown>>;
      await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), failed]);
    }
  };
  const usage = async (c: ChildProcess, message: 'start' | 'usage') => {
    c.send(message);
    return (await next('usage')).usage;
  };

  const { port, devices } = await next('devices');
  const loadBefore = (await import('node:os')).loadavg()[0]!;
  const url = new URL(MQTT_URL ?? `mqtt://127.0.0.1:${port}`);
  const fleet: BenchDevice[] = [];
  for (let i = 0; i < devices.length; i += 50)
    fleet.push(
      ...(await Promise.all(
        devices.slice(i, i + 50).map((d) => BenchDevice.connect(url.hostname, Number(url.port || 1883), d)),
      )),
    );

  let measuring = false;
  let stopping = false;
  let acked = 0;
  let skipped = 0;
  const latencies: number[] = [];
  const onAck = (ms: number) => {
    if (!measuring) return;
    acked += 1;
    latencies.push(ms);
  };
  const timers: NodeJS.Timeout[] = [];
  if (RATE > 0) {
    // Open loop: every device publishes at RATE / DEVICES readings/s, its readings of a tick in one
    // TCP write (a device sending what it measured, or replaying); a device with MAX_IN_FLIGHT
    // unacknowledged readings skips (counted) rather than queueing without end.
    const perTick = (RATE * TICK_MS) / 1000 / fleet.length;
    fleet.forEach((device) => {
      let credit = 0;
      device.onAck = onAck;
      timers.push(
        setTimeout(
          () =>
            timers.push(
              setInterval(() => {
                credit += perTick;
                let n = 0;
                for (; credit >= 1; credit -= 1) {
                  if (device.inFlight + n >= MAX_IN_FLIGHT) skipped += measuring ? 1 : 0;
                  else n += 1;
                }
                device.publish(n);
              }, TICK_MS),
            ),
          Math.random() * TICK_MS,
        ),
      );
    });
  } else {
    // Closed loop: each device keeps WINDOW readings unacknowledged; every PUBACK read is replaced
    // by a new reading, those of one TCP read in one write.
    for (const device of fleet) {
      device.onAck = onAck;
      device.onDrained = (n) => {
        if (!stopping) device.publish(n);
      };
      device.publish(WINDOW);
    }
  }

  await new Promise((resolve) => setTimeout(resolve, WARMUP_S * 1000));
  const before = await usage(child, 'start');
  const machine0 = machineTicks();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const after = await usage(child, 'usage');
  const cpu1 = process.cpuUsage(cpu0);
  const machine1 = machineTicks();
  stopping = true;
  for (const timer of timers) clearTimeout(timer);
  while (fleet.some((d) => d.inFlight > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
  const errors = fleet.reduce((sum, d) => sum + d.errors, 0);
  for (const device of fleet) device.close();
  child.send('stop');
  await next('closed');

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const serverCpu = (after.cpuUs - before.cpuUs) / 1e6 / wall;
  const loadCpu = (cpu1.user + cpu1.system) / 1e6 / wall;
  const batches = after.batches - before.batches;
  console.log(`\n${label} (load average before: ${loadBefore.toFixed(2)})`);
  console.log(
    MQTT_URL
      ? `  sustained ${((after.stored - before.stored) / wall).toFixed(0).padStart(7)} readings/s committed by the server ` +
          `(Mosquitto acknowledged ${acked} to the devices in ${wall.toFixed(1)} s; ${errors} errors)`
      : `  sustained ${(acked / wall).toFixed(0).padStart(7)} readings/s acknowledged after commit ` +
          `(${acked} in ${wall.toFixed(1)} s; server stored ${after.stored - before.stored}; ${errors} errors` +
          `${RATE > 0 ? `; offered ${RATE}/s, ${skipped} not sent as ${MAX_IN_FLIGHT} were in flight` : ''})`,
  );
  console.log(
    `  publish → PUBACK (${MQTT_URL ? "Mosquitto's own ack, not the commit" : 'after commit'}): p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
  );
  console.log(
    `  reading's \`at\` → its batch committed (server clock, ms): p50 ${after.committedP50} ms, ` +
      `p99 ${after.committedP99} ms (${after.committed} readings)`,
  );
  console.log(
    `  batches ${batches} (mean ${(batches ? (after.stored - before.stored) / batches : 0).toFixed(0)} readings, largest ${after.largest})`,
  );
  console.log(
    `  server CPU ${(serverCpu * 100).toFixed(0)} % of one core, RSS ${(after.rss / 2 ** 20).toFixed(0)} MiB, ` +
      `heap ${(after.heap / 2 ** 20).toFixed(0)} MiB; load generator CPU ${(loadCpu * 100).toFixed(0)} % of one core; ` +
      `whole machine ${(((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100).toFixed(0)} % busy ` +
      `(the rest: the database, and whatever else runs on the machine)`,
  );
  // CPU time per reading: the working figure on a shared machine (throughput depends on what else
  // runs; the work a reading costs does not).
  const stored = after.stored - before.stored;
  const perReading = (us: number) => (stored > 0 ? (us / stored).toFixed(1) : '—');
  console.log(
    `  CPU per reading stored: server ${perReading(after.cpuUs - before.cpuUs)} µs, ` +
      `load generator ${perReading(cpu1.user + cpu1.system)} µs` +
      (after.databaseCpuUs > 0
        ? `, PostgreSQL backends ${perReading(after.databaseCpuUs - before.databaseCpuUs)} µs`
        : ' (the database is inside the server)'),
  );
  const inPlace = Object.entries(after.updates).map(([table, { updated, hot }]) => {
    const was = before.updates[table] ?? { updated: 0, hot: 0 };
    const n = updated - was.updated;
    return `${table} ${n > 0 ? (((hot - was.hot) / n) * 100).toFixed(0) : '—'} % of ${n}`;
  });
  if (inPlace.length > 0)
    console.log(`  rows updated in place (HOT), PostgreSQL statistics: ${inPlace.join(', ')}`);
  if (after.buffers > 0)
    console.log(
      `  PostgreSQL buffers touched per reading stored (statistics; machine load does not change it): ` +
        `${((after.buffers - before.buffers) / (after.stored - before.stored)).toFixed(1)}`,
    );
}

/**
 * One simulated flowbox on a raw TCP socket: a minimal MQTT 3.1.1 client that does only what the
 * benchmark needs, so the load generator (on the same cores as the server) costs little per reading.
 * It signs in with the device's own credentials (clean session), publishes each reading as its own
 * QoS 1 PUBLISH on `flowbox/{serial}/telemetry` (payload as `encodePayload` writes it; checked once
 * at start), the readings of one call in one TCP write, and reads PUBACKs, timing each publish →
 * PUBACK. Anything else from the broker is skipped; a closed connection counts its readings in
 * flight as errors.
 */
class BenchDevice {
  inFlight = 0;
  errors = 0;
  onAck: (ms: number) => void = () => undefined;
  /** Called after a TCP read that held PUBACKs, with how many. */
  onDrained: (acked: number) => void = () => undefined;
  private seq = 0;
  /** Publish time of each packet id still in flight (ids are seq mod 2^16; windows are far smaller). */
  private readonly sentAt = new Float64Array(65_536);
  private readonly topic: Buffer;
  private readonly reader = new PacketReader();

  private constructor(
    private readonly socket: Socket,
    serial: string,
  ) {
    this.topic = mqttString(deviceTopic(serial, 'telemetry'));
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('close', () => {
      this.errors += this.inFlight;
      this.inFlight = 0;
    });
  }

  static async connect(host: string, port: number, device: Device): Promise<BenchDevice> {
    const socket = connect({ host, port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.write(
      connectPacket({
        clientId: device.serial,
        username: device.serial,
        password: device.password,
        keepAliveS: 0,
        clean: true,
      }),
    );
    const connack = await new Promise<Buffer>((resolve, reject) => {
      socket.once('data', resolve);
      socket.once('error', reject);
    });
    if (connack[0] !== 0x20 || connack[3] !== 0)
      throw new Error(`${device.serial}: connection refused (${connack.toString('hex')})`);
    return new BenchDevice(socket, device.serial);
  }

  /** `count` new readings, each its own QoS 1 PUBLISH, in one TCP write. */
  publish(count: number): void {
    if (count <= 0 || this.socket.destroyed) return;
    const packets: Buffer[] = [];
    const now = performance.now();
    const at = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const seq = ++this.seq;
      const payload = Buffer.from(telemetryPayload(seq, at), 'utf8');
      const id = seq & 0xffff || 1;
      const length = this.topic.length + 2 + payload.length;
      packets.push(
        Buffer.from([0x32, ...remainingLength(length)]),
        this.topic,
        Buffer.from([id >> 8, id & 0xff]),
        payload,
      );
      this.sentAt[id] = now;
    }
    this.inFlight += count;
    this.socket.write(Buffer.concat(packets));
  }

  close(): void {
    this.socket.end(Buffer.from([0xe0, 0]));
  }

  private read(chunk: Buffer): void {
    const now = performance.now();
    let acked = 0;
    this.reader.push(chunk, (first, body) => {
      if (first >> 4 !== PUBACK) return;
      const id = (body[0]! << 8) | body[1]!;
      this.inFlight -= 1;
      acked += 1;
      this.onAck(now - this.sentAt[id]!);
    });
    if (acked > 0) this.onDrained(acked);
  }
}

/** A telemetry payload as `encodePayload` writes it, without building the object first. */
function telemetryPayload(seq: number, at: string): string {
  return (
    `{"v":${PROTOCOL_VERSION},"seq":${seq},"at":"${at}","interval_s":60,"volume_l":${1 + (seq % 7) * 0.25},` +
    `"flow_s":30,"temperature_c":19.5,"humidity_pct":48}`
  );
}

const sample = { v: PROTOCOL_VERSION, seq: 3, at: new Date().toISOString(), interval_s: 60, volume_l: 1.75 };
if (
  telemetryPayload(sample.seq, sample.at) !==
  encodePayload({ ...sample, flow_s: 30, temperature_c: 19.5, humidity_pct: 48 })
)
  throw new Error('the benchmark payload differs from encodePayload');

if (process.env.BENCH_INGEST_ROLE === 'server') await serve();
else await main();
