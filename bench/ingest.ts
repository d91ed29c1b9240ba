// Benchmark of telemetry ingest (issue #6): N simulated devices, each with its own credentials, publish
// QoS 1 readings to the embedded MQTT broker of a server process, which stores them (batch writer:
// readings, hourly and daily rollups, latest figures, one transaction per batch) and only then lets
// the broker send the PUBACK. So the publish → PUBACK round trip the devices see IS publish → committed.
// Runs on embedded PGlite, then on PostgreSQL (FLOWBOX_TEST_PG, a throw-away database). The server is a
// child process (its CPU and memory measured alone); the load generator is this process, on the same
// machine and cores. Prints figures and exits. Knobs: BENCH_SECONDS, BENCH_DEVICES, BENCH_WINDOW,
// BENCH_BATCH, BENCH_WAIT_MS, BENCH_CONCURRENCY, BENCH_ZONES.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deviceTopic, encodePayload, PROTOCOL_VERSION } from '@flowbox/shared';
import mqtt, { type MqttClient } from 'mqtt';

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

type Device = { serial: string; password: string };
type Usage = {
  /** Server side, from the reading's `at` (set by the device when it published) to its batch's commit. */
  committedP50: number;
  committedP99: number;
  committed: number;
  cpuUs: number;
  rss: number;
  heap: number;
  stored: number;
  batches: number;
  largest: number;
};
type FromServer = { port: number; devices: Device[] } | { usage: Usage } | { closed: true };

if (process.env.BENCH_INGEST_ROLE === 'server') await serve();
else await main();

/** The server process: database, app services, device messaging with the embedded broker. */
async function serve(): Promise<void> {
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { openTestDatabase, testConfig, freePort } = await import('../packages/server/src/test/harness.ts');
  const { startDeviceMessaging } = await import('../packages/server/src/mqtt/messaging.ts');
  const { createZones, pairDirectly } = await import('../packages/server/src/telemetry/testing.ts');
  const database = await openTestDatabase();
  const { app, services } = await buildApp({ config: testConfig(), db: database.db, logger: false });
  const zones = await createZones(database.db, 'Europe/Paris', ZONES);
  const devices: Device[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const paired = await pairDirectly(
      database.db,
      zones[i % zones.length]!,
      `BENCH-${String(i).padStart(6, '0')}`,
    );
    devices.push({ serial: paired.serial, password: paired.password });
  }
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
  process.on('message', (message: string) => {
    if (message === 'start' || message === 'usage') {
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
          rss: memory.rss,
          heap: memory.heapUsed,
          stored: c.stored,
          batches: c.batches,
          largest: c.largest_batch,
        },
      });
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
  await run('Embedded PGlite', {});
  await run(`PostgreSQL (${new URL(pgUrl).host}, throw-away database)`, { FLOWBOX_TEST_PG: pgUrl }).catch(
    (error: unknown) => console.log(`\nPostgreSQL: not measured (${String(error)})`),
  );
  process.exit(0);
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const child = fork(import.meta.filename, [], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ],
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
  const url = MQTT_URL ?? `mqtt://127.0.0.1:${port}`;
  const clients: MqttClient[] = [];
  for (let i = 0; i < devices.length; i += 50)
    clients.push(
      ...(await Promise.all(
        devices.slice(i, i + 50).map((d) =>
          mqtt.connectAsync(url, {
            username: d.serial,
            password: d.password,
            clientId: d.serial,
            reconnectPeriod: 0,
          }),
        ),
      )),
    );

  let measuring = false;
  let stopping = false;
  let acked = 0;
  let errors = 0;
  const latencies: number[] = [];
  const inFlight = new Array<number>(clients.length).fill(0);
  const seqs = new Array<number>(clients.length).fill(0);
  let skipped = 0;
  const publishOne = (i: number, done?: () => void) => {
    const client = clients[i]!;
    const seq = (seqs[i] = seqs[i]! + 1);
    const sent = performance.now();
    const payload = encodePayload({
      v: PROTOCOL_VERSION,
      seq,
      at: new Date().toISOString(),
      interval_s: 60,
      volume_l: 1 + (seq % 7) * 0.25,
      flow_s: 30,
      temperature_c: 19.5,
      humidity_pct: 48,
    });
    inFlight[i] = inFlight[i]! + 1;
    client.publish(deviceTopic(devices[i]!.serial, 'telemetry'), payload, { qos: 1 }, (error) => {
      inFlight[i] = inFlight[i]! - 1;
      if (error) errors += 1;
      else if (measuring) {
        acked += 1;
        latencies.push(performance.now() - sent);
      }
      done?.();
    });
  };
  const timers: NodeJS.Timeout[] = [];
  let loops: Promise<unknown> = Promise.resolve();
  if (RATE > 0) {
    // Open loop: every device publishes at RATE / DEVICES readings/s, its readings of a tick in one
    // TCP write (a device sending what it measured, or replaying); a device with MAX_IN_FLIGHT
    // unacknowledged readings skips (counted) rather than queueing without end.
    const perTick = (RATE * TICK_MS) / 1000 / clients.length;
    clients.forEach((client, i) => {
      let credit = 0;
      timers.push(
        setTimeout(
          () =>
            timers.push(
              setInterval(() => {
                credit += perTick;
                client.stream.cork();
                for (; credit >= 1; credit -= 1) {
                  if (inFlight[i]! >= MAX_IN_FLIGHT) skipped += measuring ? 1 : 0;
                  else publishOne(i);
                }
                process.nextTick(() => client.stream.uncork());
              }, TICK_MS),
            ),
          Math.random() * TICK_MS,
        ),
      );
    });
  } else {
    // Closed loop: each device keeps WINDOW readings unacknowledged, as fast as acknowledgements come.
    loops = Promise.all(
      clients.map((_, i) =>
        Promise.all(
          Array.from({ length: WINDOW }, async () => {
            while (!stopping) await new Promise<void>((resolve) => publishOne(i, resolve));
          }),
        ),
      ),
    );
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
  await loops;
  while (inFlight.some((n) => n > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all(clients.map((c) => c.endAsync(true)));
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
}

/** Busy and total CPU ticks of the whole machine (Linux /proc/stat), to see what the database takes. */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
