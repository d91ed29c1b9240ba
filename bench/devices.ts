// A fleet of connected devices on the production shape (issue 32): N devices, each a raw-socket MQTT
// 3.1.1 client following docs/protocol.md (last will, `commands` and `confirm` subscribed, presence
// online at connect, one QoS 1 reading every BENCH_INTERVAL_S with `seq`, `at` and `sent_at`, a
// heartbeat only after HEARTBEAT_PERIOD_S without any message, unconfirmed readings sent again after
// CONFIRM_TIMEOUT_S and on every reconnection, jittered reconnection back-off), connecting over the
// first BENCH_RAMP_S seconds through a Mosquitto of the bench's own, run with deploy/mosquitto.conf
// (dynamic security on, each device its own account and role), to BENCH_INSTANCES server processes
// (packages/server/src/main.ts with MQTT_URL, MQTT_DYNSEC_*, a stable MQTT_CLIENT_ID each, the
// protocol's shared subscription group) on a throw-away PostgreSQL database (FLOWBOX_TEST_PG).
//
// Every BENCH_STEP_S (10 s) it prints: devices connected; readings offered (made by the devices),
// committed (counted in the database) and not yet committed; publish → confirmed (the server's
// confirmation, sent once the reading's batch committed) p50/p99 of the readings confirmed in the
// step; CPU (% of one core over the step) and memory of the server, the broker and the database's
// backends, and the load average. At the end, once devices stop measuring and have had time to have
// every reading confirmed: totals, and "0 lost" or how many. BENCH_BROKER_RESTART_AT_S restarts the
// broker (SIGTERM, then the same configuration) at that second, and the bench reports how long until
// every device was connected again and, at the end, whether anything was lost.
//
// Descriptors and addresses: this machine allows 20,000 descriptors a process (`ulimit -n`, hard
// limit). So the devices run in child processes of BENCH_DEVICES_PER_PROCESS (17,000) each, and one
// Mosquitto holds at most ~19,500 devices: beyond, BENCH_BROKERS brokers (default: enough for the devices), device i on broker
// i mod B, each broker holding its own devices' accounts. Every instance reads every broker (MQTT_URL
// lists them all: docs/operations.md "Beyond one Mosquitto"); with several brokers the instances do
// not manage device accounts (no MQTT_DYNSEC_*: an operator's choice the product supports), since
// the server would make every account on every broker.
//
// Ephemeral ports: each broker listens on several loopback addresses (bench/lib/fleet-broker.ts), and
// device i connects to address i mod that count, so that no destination address and port has more
// than a few thousand connections. Linux looks for a free local port for each connection by walking
// the ports in use towards that destination: measured, with one destination per broker (16,700
// connections each) the walk (`__inet_hash_connect`, `__inet_check_established` in perf) took a whole
// core once 85,000 devices were connected and the rest could not connect; with each socket bound to a
// source address first, the bound ports' search (`inet_bind2_bucket_find`) took 80 % of both cores
// from 17,000. Either way the run measured the kernel, not the server.
//
// The devices are raw sockets (bench/lib/mqtt-packets.ts), not mqtt.js clients: measured on this
// machine (2,000 clients connected with a will and two subscriptions, then idle for 65 s), mqtt.js took
// 1.2 ms of CPU a client to connect, 22 KiB of memory a client and 0.7 s of CPU for the minute's
// keep-alives; raw sockets 0.3 ms, under 1 KiB and 0.09 s. mqtt.js would hold 20,000 clients a
// process (~430 MiB), but its CPU comes off the two cores the server is measured on.
//
// Knobs: BENCH_DEVICES (2000), BENCH_INSTANCES (1), BENCH_INTERVAL_S (60), BENCH_RAMP_S (60),
// BENCH_SECONDS (180), BENCH_STEP_S (10), BENCH_BROKER_RESTART_AT_S (off), BENCH_BROKERS,
// BENCH_DEVICES_PER_PROCESS (17000), BENCH_INGEST_CONNECTIONS (the server's MQTT_INGEST_CONNECTIONS,
// its default if unset), BENCH_KEEP_LOGS (1: keep the broker's and servers' logs).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import {
  CONFIRM_TIMEOUT_S,
  deviceTopic,
  encodePayload,
  HEARTBEAT_PERIOD_S,
  MQTT_KEEPALIVE_S,
  PROTOCOL_VERSION,
  reconnectDelayMs,
} from '@flowbox/shared';
import {
  CONNACK,
  connectPacket,
  mqttString,
  PacketReader,
  PUBACK,
  pubackPacket,
  PUBLISH,
  publishPacket,
  readPublish,
  subscribePacket,
} from './lib/mqtt-packets.ts';
import type { PairedBenchDevice } from './lib/paired-devices.ts';
import type { FleetBroker } from './lib/fleet-broker.ts';
import type { TestDatabase } from '../packages/server/src/test/harness.ts';
import { processCpuUs, processPrivateBytes, processRssBytes } from './lib/usage.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 2000);
const INTERVAL_S = Number(process.env.BENCH_INTERVAL_S ?? 60);
const RAMP_S = Number(process.env.BENCH_RAMP_S ?? 60);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 180);
const STEP_S = Number(process.env.BENCH_STEP_S ?? 10);
const RESTART_AT_S = process.env.BENCH_BROKER_RESTART_AT_S
  ? Number(process.env.BENCH_BROKER_RESTART_AT_S)
  : null;
const PER_PROCESS = Number(process.env.BENCH_DEVICES_PER_PROCESS ?? 17_000);
/** Devices one Mosquitto holds under a 20,000-descriptor limit, with room for the servers' connections. */
const PER_BROKER = 19_500;
const BROKERS = Number(process.env.BENCH_BROKERS ?? Math.ceil(DEVICES / PER_BROKER));
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const INGEST_CONNECTIONS = process.env.BENCH_INGEST_CONNECTIONS;
const KEEP_LOGS = process.env.BENCH_KEEP_LOGS === '1';
/** After the run, how long devices have to get every reading confirmed: two resends and a margin. */
const DRAIN_S = 2 * CONFIRM_TIMEOUT_S + 30;
const ZONES = Math.max(1, Math.ceil(DEVICES / 20));
/** A device that gets no CONNACK in this time drops the attempt and backs off (flowbox-sim: 10 s). */
const CONNECT_TIMEOUT_MS = 10_000;
const TICK_MS = 200;

/** What the bench gives a generator process: its devices and when the run started. */
type Assignment = {
  devices: (PairedBenchDevice & { host: string; port: number; index: number })[];
  total: number;
  startedAt: number;
};
/** A generator's figures so far (counts since the start; latencies since the last step). */
type GeneratorStep = {
  connected: number;
  offered: number;
  sent: number;
  resent: number;
  confirmed: number;
  unconfirmed: number;
  heartbeats: number;
  connections: number;
  refused: number;
  /** Wall clock (ms) of the latest successful connection of any of its devices. */
  lastConnectAt: number;
  latencies: number[];
};
type ToGenerator = { assign: Assignment } | 'step' | 'stop-measuring' | 'close';
type FromGenerator = { up: true } | { ready: true } | { step: GeneratorStep };

/**
 * One flowbox as docs/protocol.md has it, on a raw socket: what it keeps is its readings not yet
 * confirmed by the server (sent again on every connection and 30 s after their PUBACK).
 */
class FleetDevice {
  connected = false;
  private socket: Socket | undefined;
  private readonly reader = new PacketReader();
  private attempts = 0;
  /** When to open the next connection (0: not now, a connection is open or being opened). */
  retryAt: number;
  nextReadingAt: number;
  lastPublishAt = 0;
  private seq = 0;
  private packetId = 0;
  /** Readings not yet confirmed, by seq: when measured, first sent (0: not yet) and acknowledged. */
  private readonly unconfirmed = new Map<number, { at: string; firstSentAt: number; pubackAt: number }>();
  private readonly inFlight = new Map<number, number>();
  private readonly topics: { telemetry: Buffer; presence: Buffer };

  constructor(
    readonly serial: string,
    private readonly password: string,
    private readonly host: string,
    private readonly port: number,
    private readonly fleet: Generator,
    connectAt: number,
  ) {
    this.retryAt = connectAt;
    this.nextReadingAt = connectAt + INTERVAL_S * 1000;
    this.topics = {
      telemetry: mqttString(deviceTopic(serial, 'telemetry')),
      presence: mqttString(deviceTopic(serial, 'presence')),
    };
  }

  get pending(): number {
    return this.unconfirmed.size;
  }

  /** Called every tick: connect when due, measure, say it is there, send again what waits too long. */
  tick(now: number, measuring: boolean): void {
    if (!this.socket && this.retryAt > 0 && now >= this.retryAt) this.open();
    if (measuring && now >= this.nextReadingAt) {
      // One reading an interval whatever happens: a generator process starved of CPU (a shared
      // machine) measures late, never twice to catch up, which would turn its stall into a burst.
      this.nextReadingAt += INTERVAL_S * 1000;
      if (this.nextReadingAt <= now) this.nextReadingAt = now + INTERVAL_S * 1000;
      this.measure(now);
    }
    if (!this.connected) return;
    if (now - this.lastPublishAt >= HEARTBEAT_PERIOD_S * 1000) {
      this.fleet.figures.heartbeats += 1;
      this.publishPresence(now);
    }
    for (const [seq, reading] of this.unconfirmed)
      if (reading.pubackAt > 0 && now - reading.pubackAt >= CONFIRM_TIMEOUT_S * 1000) {
        this.fleet.figures.resent += 1;
        this.sendReading(seq, reading, now);
      }
  }

  close(): void {
    this.retryAt = 0;
    this.socket?.destroy();
  }

  private open(): void {
    this.retryAt = 0;
    const socket = connect({
      host: this.host,
      port: this.port,
      noDelay: true,
    });
    this.socket = socket;
    const timeout = setTimeout(() => socket.destroy(), CONNECT_TIMEOUT_MS);
    socket.on('connect', () =>
      socket.write(
        connectPacket({
          clientId: this.serial,
          username: this.serial,
          password: this.password,
          keepAliveS: MQTT_KEEPALIVE_S,
          clean: false,
          will: {
            topic: deviceTopic(this.serial, 'presence'),
            payload: Buffer.from(
              encodePayload({
                v: PROTOCOL_VERSION,
                at: new Date().toISOString(),
                status: 'offline',
                reason: 'connection_lost',
              }),
            ),
            qos: 1,
            retain: true,
          },
        }),
      ),
    );
    socket.on('data', (chunk: Buffer) =>
      this.reader.push(chunk, (first, body) => {
        if (first >> 4 === CONNACK) {
          clearTimeout(timeout);
          this.connack(body[1]!);
        } else if (first >> 4 === PUBACK) this.puback((body[0]! << 8) | body[1]!);
        else if (first >> 4 === PUBLISH) this.receive(first, body);
      }),
    );
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timeout);
      this.closed();
    });
  }

  /** Connected: subscribe, say online, then send every reading the server has not confirmed, in order. */
  private connack(code: number): void {
    if (code !== 0) {
      this.fleet.figures.refused += 1;
      this.socket?.destroy();
      return;
    }
    const now = Date.now();
    this.connected = true;
    this.attempts = 0;
    this.fleet.figures.connections += 1;
    this.fleet.figures.lastConnectAt = now;
    this.socket!.write(
      subscribePacket(this.nextPacketId(), [
        { topic: deviceTopic(this.serial, 'commands'), qos: 1 },
        { topic: deviceTopic(this.serial, 'confirm'), qos: 0 },
      ]),
    );
    this.publishPresence(now);
    for (const [seq, reading] of [...this.unconfirmed].sort(([a], [b]) => a - b)) {
      if (reading.firstSentAt > 0) this.fleet.figures.resent += 1;
      this.sendReading(seq, reading, now);
    }
  }

  private closed(): void {
    this.socket = undefined;
    this.reader.clear();
    this.inFlight.clear();
    for (const reading of this.unconfirmed.values()) reading.pubackAt = 0;
    this.connected = false;
    if (this.fleet.closing) return;
    this.retryAt = Date.now() + reconnectDelayMs(this.attempts++, Math.random());
  }

  /** A new reading: kept until confirmed, sent now if connected. */
  private measure(now: number): void {
    const seq = ++this.seq;
    const reading = { at: new Date(now).toISOString(), firstSentAt: 0, pubackAt: 0 };
    this.unconfirmed.set(seq, reading);
    this.fleet.figures.offered += 1;
    if (this.connected) this.sendReading(seq, reading, now);
  }

  private sendReading(
    seq: number,
    reading: { at: string; firstSentAt: number; pubackAt: number },
    now: number,
  ) {
    const payload = encodePayload({
      v: PROTOCOL_VERSION,
      seq,
      at: reading.at,
      interval_s: INTERVAL_S,
      volume_l: 1 + (seq % 7) * 0.25,
      flow_s: Math.min(30, INTERVAL_S),
      temperature_c: 19.5,
      humidity_pct: 48,
      sent_at: new Date(now).toISOString(),
    });
    const id = this.nextPacketId();
    this.inFlight.set(id, seq);
    if (reading.firstSentAt === 0) {
      reading.firstSentAt = now;
      this.fleet.figures.sent += 1;
    }
    reading.pubackAt = 0;
    this.lastPublishAt = now;
    this.socket!.write(
      publishPacket({ topic: this.topics.telemetry, payload: Buffer.from(payload), qos: 1, id }),
    );
  }

  private publishPresence(now: number): void {
    this.lastPublishAt = now;
    const payload = encodePayload({ v: PROTOCOL_VERSION, at: new Date(now).toISOString(), status: 'online' });
    this.socket!.write(
      publishPacket({
        topic: this.topics.presence,
        payload: Buffer.from(payload),
        qos: 1,
        retain: true,
        id: this.nextPacketId(),
      }),
    );
  }

  private puback(id: number): void {
    const seq = this.inFlight.get(id);
    if (seq === undefined) return;
    this.inFlight.delete(id);
    const reading = this.unconfirmed.get(seq);
    if (reading) reading.pubackAt = Date.now();
  }

  /** `confirm`: forget every reading it covers; `commands` (none in this bench): acknowledged. */
  private receive(first: number, body: Buffer): void {
    const { topic, id, payload } = readPublish(first, body);
    if (id > 0) this.socket?.write(pubackPacket(id));
    if (!topic.endsWith('/confirm')) return;
    const now = Date.now();
    const { telemetry } = JSON.parse(payload.toString('utf8')) as { telemetry: [number, number][] };
    for (const [first, last] of telemetry)
      for (const [seq, reading] of this.unconfirmed)
        if (seq >= first && seq <= last) {
          this.unconfirmed.delete(seq);
          this.fleet.figures.confirmed += 1;
          if (reading.firstSentAt > 0) this.fleet.latencies.push(now - reading.firstSentAt);
        }
  }

  private nextPacketId(): number {
    this.packetId = (this.packetId % 0xffff) + 1;
    return this.packetId;
  }
}

/** A child process holding its share of the devices (under the descriptor limit). */
class Generator {
  readonly figures = {
    offered: 0,
    sent: 0,
    resent: 0,
    confirmed: 0,
    heartbeats: 0,
    connections: 0,
    refused: 0,
    lastConnectAt: 0,
  };
  latencies: number[] = [];
  closing = false;
  private measuring = true;
  private readonly devices: FleetDevice[];
  private readonly timer: NodeJS.Timeout;

  constructor(assignment: Assignment) {
    const rampMs = RAMP_S * 1000;
    this.devices = assignment.devices.map(
      (d) =>
        new FleetDevice(
          d.serial,
          d.password,
          d.host,
          d.port,
          this,
          assignment.startedAt + (rampMs * d.index) / assignment.total,
        ),
    );
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const device of this.devices) device.tick(now, this.measuring);
    }, TICK_MS);
  }

  step(): GeneratorStep {
    const latencies = this.latencies;
    this.latencies = [];
    return {
      ...this.figures,
      connected: this.devices.reduce((n, d) => n + (d.connected ? 1 : 0), 0),
      unconfirmed: this.devices.reduce((n, d) => n + d.pending, 0),
      latencies,
    };
  }

  stopMeasuring(): void {
    this.measuring = false;
  }

  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    for (const device of this.devices) device.close();
  }
}

function generate(): void {
  let generator: Generator | undefined;
  const send = (message: FromGenerator) => process.send!(message);
  process.on('message', (message: ToGenerator) => {
    if (message === 'step') send({ step: generator!.step() });
    else if (message === 'stop-measuring') generator?.stopMeasuring();
    else if (message === 'close') {
      generator?.close();
      setTimeout(() => process.exit(0), 200);
    } else {
      generator = new Generator(message.assign);
      send({ ready: true });
    }
  });
  process.once('disconnect', () => process.exit(1));
  send({ up: true });
}

/** A generator process, asked for its figures over IPC. */
class GeneratorProcess {
  private readonly waiting: ((step: GeneratorStep) => void)[] = [];
  private constructor(readonly child: ChildProcess) {
    child.on('message', (message: FromGenerator) => {
      if ('step' in message) this.waiting.shift()?.(message.step);
    });
  }

  /**
   * A generator process, up (its code loaded) but given no devices yet: all are started before the
   * run's clock starts, or the devices of the last ones, started seconds later on a busy machine,
   * would all connect at once to catch up with the ramp.
   */
  static async start(): Promise<GeneratorProcess> {
    const child = fork(import.meta.filename, [], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: { ...process.env, BENCH_DEVICES_ROLE: 'generator' },
    });
    await GeneratorProcess.answer(child);
    return new GeneratorProcess(child);
  }

  /** Its devices, which it starts connecting at `assignment.startedAt`. */
  async assign(assignment: Assignment): Promise<void> {
    const answered = GeneratorProcess.answer(this.child);
    this.child.send({ assign: assignment } satisfies ToGenerator);
    await answered;
  }

  private static answer(child: ChildProcess): Promise<void> {
    return new Promise<void>((ready, fail) => {
      const exited = (code: number | null) => fail(new Error(`a device generator exited with ${code}`));
      child.once('exit', exited);
      child.once('message', () => {
        child.off('exit', exited);
        ready();
      });
    });
  }

  step(): Promise<GeneratorStep> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.send('step' satisfies ToGenerator);
    });
  }

  send(message: ToGenerator): void {
    this.child.send(message);
  }
}

type Instance = { child: ChildProcess; url: string; logFile: string };

/** One server process, as production runs it (main.ts), reading every broker. */
async function startInstance(
  index: number,
  brokers: FleetBroker[],
  databaseUrl: string,
  dir: string,
): Promise<Instance> {
  const { freePort } = await import('../packages/server/src/test/harness.ts');
  const port = await freePort();
  const logFile = join(dir, `server-${index}.log`);
  const log = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', join(import.meta.dirname, '../packages/server/src/main.ts')],
    {
      stdio: ['ignore', log, log],
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(dir, `data-${index}`),
        DATABASE_URL: databaseUrl,
        MQTT_URL: brokers.map((broker) => broker.serverUrl).join(','),
        MQTT_CLIENT_ID: `flowbox-bench-${index}`,
        ...(brokers.length === 1
          ? {
              MQTT_DYNSEC_USERNAME: brokers[0]!.admin.username,
              MQTT_DYNSEC_PASSWORD: brokers[0]!.admin.password,
            }
          : {}),
        JWT_SECRET: randomBytes(32).toString('hex'),
        DEMO: 'false',
        DEMO_FLEET: 'false',
        LOG_LEVEL: 'warn',
        ...(INGEST_CONNECTIONS ? { MQTT_INGEST_CONNECTIONS: INGEST_CONNECTIONS } : {}),
      },
    },
  );
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); !(await ready(url));) {
    if (child.exitCode !== null) throw new Error(`server ${index} exited: ${readFileSync(logFile, 'utf8')}`);
    if (Date.now() - started > 180_000)
      throw new Error(`server ${index} not ready in 180 s (log: ${logFile})`);
    await new Promise((done) => setTimeout(done, 500));
  }
  return { child, url, logFile };
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/v1/health/ready`, { signal: AbortSignal.timeout(5000) })).ok;
  } catch {
    return false;
  }
}

/** CPU % of one core and memory of some processes over a step. */
class Usage {
  private last = new Map<number, number>();
  private lastAt = performance.now();

  /** CPU since the last call (% of one core, summed over `pids`), then resets. */
  cpu(pids: number[]): number {
    const now = performance.now();
    let used = 0;
    const next = new Map<number, number>();
    for (const pid of pids) {
      const us = processCpuUs(pid);
      next.set(pid, us);
      used += us - (this.last.get(pid) ?? us);
    }
    const percent = (used / 1000 / (now - this.lastAt)) * 100;
    this.last = next;
    this.lastAt = now;
    return percent;
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (n: number) =>
  Number.isNaN(n) ? '—' : n >= 10_000 ? `${(n / 1000).toFixed(0)} s` : `${n.toFixed(0)} ms`;

async function main(): Promise<void> {
  process.env.FLOWBOX_TEST_PG ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  // Imported here, not at the top: the generator processes load none of the server.
  const { openUnguardedTestDatabase } = await import('../packages/server/src/test/harness.ts');
  const { pairBenchDevices } = await import('./lib/paired-devices.ts');
  const { startFleetBroker, timeGrant } = await import('./lib/fleet-broker.ts');
  const dir = mkdtempSync(join(tmpdir(), 'fbx-fleet-'));
  const generators = Math.ceil(DEVICES / PER_PROCESS);
  console.log(
    `Fleet bench: ${DEVICES} devices (${generators} generator process${generators > 1 ? 'es' : ''}, ` +
      `${PER_PROCESS} devices a process at most), one reading every ${INTERVAL_S} s, connections over ` +
      `the first ${RAMP_S} s, ${SECONDS} s then up to ${DRAIN_S} s for the last confirmations; ` +
      `${BROKERS} Mosquitto (deploy/mosquitto.conf, dynamic security), ${INSTANCES} server instance(s) on ` +
      `PostgreSQL (${new URL(process.env.FLOWBOX_TEST_PG).host}, throw-away database)` +
      `${INGEST_CONNECTIONS ? `, MQTT_INGEST_CONNECTIONS=${INGEST_CONNECTIONS}` : ''}` +
      `${RESTART_AT_S !== null ? `; broker restart at ${RESTART_AT_S} s` : ''}; Node ${process.version}; ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const database = await openUnguardedTestDatabase();
  const brokers: FleetBroker[] = [];
  const instances: Instance[] = [];
  const fleet: GeneratorProcess[] = [];
  try {
    let t0 = performance.now();
    const devices = await pairBenchDevices(database.db, DEVICES, ZONES, 10);
    for (let b = 0; b < BROKERS; b++)
      brokers.push(
        await startFleetBroker(
          join(dir, `broker-${b}`),
          devices.filter((_, i) => i % BROKERS === b),
        ),
      );
    console.log(
      `  set-up: ${DEVICES} devices paired and their broker accounts made in ${((performance.now() - t0) / 1000).toFixed(0)} s; ` +
        `one more account through dynamic security's control topic (a pairing) then took the broker ` +
        `${ms(await timeGrant(brokers[0]!))}, serving nobody meanwhile`,
    );
    t0 = performance.now();
    for (let j = 0; j < INSTANCES; j++) instances.push(await startInstance(j, brokers, database.url!, dir));
    console.log(
      `  ${INSTANCES} server instance(s) ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    fleet.push(...(await Promise.all(Array.from({ length: generators }, () => GeneratorProcess.start()))));
    const startedAt = Date.now() + 1000;
    await Promise.all(
      fleet.map((generator, g) =>
        generator.assign({
          devices: devices
            .map((d, index) => {
              const broker = brokers[index % BROKERS]!;
              const host = broker.hosts[Math.floor(index / BROKERS) % broker.hosts.length]!;
              return { ...d, index, host, port: broker.port };
            })
            .slice(g * PER_PROCESS, (g + 1) * PER_PROCESS),
          total: DEVICES,
          startedAt,
        }),
      ),
    );
    await runSteps({ database, brokers, instances, fleet, startedAt });
  } finally {
    for (const g of fleet) g.send('close');
    await Promise.all(instances.map((i) => stopProcess(i.child)));
    for (const broker of brokers) await broker.close();
    await database.close();
    if (KEEP_LOGS) console.log(`  logs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

type Run = {
  database: TestDatabase;
  brokers: FleetBroker[];
  instances: Instance[];
  fleet: GeneratorProcess[];
  startedAt: number;
};

/** Steps until the run's end and the drain after it; then the totals. */
async function runSteps(run: Run): Promise<void> {
  const { database, brokers, instances, fleet, startedAt } = run;
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const serverUsage = new Usage();
  const brokerUsage = new Usage();
  const databaseUsage = new Usage();
  const backends = async () =>
    (
      await rows<{ pid: number }>(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
    ).map((r) => r.pid);
  const all: number[] = [];
  const cpu = {
    server: [] as number[],
    broker: [] as number[],
    database: [] as number[],
    devices: [] as number[],
  };
  const devicesUsage = new Usage();
  const devicePids = fleet.map((g) => g.child.pid!);
  const peak = { server: 0, broker: 0, database: 0 };
  let restart: { upAt: number; downMs: number; backAfterMs?: number } | undefined;
  let restartedNow = false;
  let measuring = true;
  let last: GeneratorStep | undefined;
  let committed = 0;
  // The first step's CPU is measured from here.
  serverUsage.cpu(instances.map((i) => i.child.pid!));
  brokerUsage.cpu(brokers.map((b) => b.pid()).filter((p) => p !== undefined));
  databaseUsage.cpu(await backends());
  devicesUsage.cpu(devicePids);
  console.log(
    '\n   t s  connected   offered  committed  pending  resent  confirm p50   p99 │ server CPU  RSS │ broker CPU  RSS │ PostgreSQL CPU  private │ load',
  );
  for (let step = 1; ; step++) {
    const due = startedAt + step * STEP_S * 1000;
    await new Promise((done) => setTimeout(done, Math.max(0, due - Date.now())));
    const elapsedS = step * STEP_S;
    if (RESTART_AT_S !== null && !restart && elapsedS >= RESTART_AT_S) {
      const downMs = Math.max(...(await Promise.all(brokers.map((b) => b.restart()))).map((r) => r.downMs));
      restart = { upAt: Date.now(), downMs };
      restartedNow = true;
    }
    if (measuring && elapsedS >= SECONDS) {
      measuring = false;
      for (const g of fleet) g.send('stop-measuring');
    }
    const steps = await Promise.all(fleet.map((g) => g.step()));
    const sum = (key: Exclude<keyof GeneratorStep, 'latencies'>) => steps.reduce((n, s) => n + s[key], 0);
    const now: GeneratorStep = {
      connected: sum('connected'),
      offered: sum('offered'),
      sent: sum('sent'),
      resent: sum('resent'),
      confirmed: sum('confirmed'),
      unconfirmed: sum('unconfirmed'),
      heartbeats: sum('heartbeats'),
      connections: sum('connections'),
      refused: sum('refused'),
      lastConnectAt: Math.max(...steps.map((s) => s.lastConnectAt)),
      latencies: steps.flatMap((s) => s.latencies).sort((a, b) => a - b),
    };
    last = now;
    all.push(...now.latencies);
    committed = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM telemetry_readings`))[0]!.n;
    if (
      restart &&
      restart.backAfterMs === undefined &&
      now.connected === DEVICES &&
      now.lastConnectAt > restart.upAt
    )
      restart.backAfterMs = now.lastConnectAt - restart.upAt;
    const serverPids = instances.map((i) => i.child.pid!);
    const brokerPids = brokers.map((b) => b.pid()).filter((p) => p !== undefined);
    const databasePids = await backends();
    const usage = {
      server: serverUsage.cpu(serverPids),
      broker: brokerUsage.cpu(brokerPids),
      database: databaseUsage.cpu(databasePids),
    };
    const memory = {
      server: serverPids.reduce((n, p) => n + processRssBytes(p), 0),
      broker: brokerPids.reduce((n, p) => n + processRssBytes(p), 0),
      database: databasePids.reduce((n, p) => n + processPrivateBytes(p), 0),
    };
    cpu.devices.push(devicesUsage.cpu(devicePids));
    for (const k of ['server', 'broker', 'database'] as const) {
      cpu[k].push(usage[k]);
      peak[k] = Math.max(peak[k], memory[k]);
    }
    console.log(
      `${String(elapsedS).padStart(6)} ${String(now.connected).padStart(10)} ${String(now.offered).padStart(9)} ` +
        `${String(committed).padStart(10)} ${String(now.unconfirmed).padStart(8)} ${String(now.resent).padStart(7)} ` +
        `${ms(quantile(now.latencies, 0.5)).padStart(12)} ${ms(quantile(now.latencies, 0.99)).padStart(6)} │ ` +
        `${`${usage.server.toFixed(0)} %`.padStart(10)} ${mib(memory.server).padStart(8)} │ ` +
        `${`${usage.broker.toFixed(0)} %`.padStart(10)} ${mib(memory.broker).padStart(8)} │ ` +
        `${`${usage.database.toFixed(0)} %`.padStart(14)} ${mib(memory.database).padStart(8)} │ ${loadavg()[0]!.toFixed(1)}` +
        (restartedNow ? `  ← broker restarted (down ${ms(restart!.downMs)})` : ''),
    );
    restartedNow = false;
    const drained = now.unconfirmed === 0 && committed >= now.offered;
    if (!measuring && (drained || elapsedS >= SECONDS + DRAIN_S)) break;
  }
  const final = last!;
  all.sort((a, b) => a - b);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  // Not committed by the end is not lost while a device still holds it (it keeps sending it); lost is
  // a reading its device forgot (confirmed) that no row holds.
  const missing = final.offered - committed;
  const lost = Math.max(0, missing - final.unconfirmed);
  const logged = (file: string, pattern: RegExp) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => pattern.test(line)).length;
  console.log(
    `\nTotals: ${final.offered} readings offered, ${committed} committed, ${lost === 0 ? '0 lost' : `${lost} LOST`}` +
      `${missing > 0 ? ` (${missing} not committed by the end, ${final.unconfirmed} still held by their devices)` : ''}; ` +
      `${final.resent} sent again, ${final.heartbeats} heartbeats, ` +
      `${final.connections} connections (${final.refused} refused)`,
  );
  console.log(
    `  publish → confirmed over the run: p50 ${ms(quantile(all, 0.5))}, p99 ${ms(quantile(all, 0.99))}, ` +
      `max ${ms(all.at(-1) ?? NaN)} (${all.length} readings)`,
  );
  console.log(
    `  mean CPU (% of one core): server ${mean(cpu.server).toFixed(0)} %, broker ${mean(cpu.broker).toFixed(0)} %, ` +
      `PostgreSQL backends ${mean(cpu.database).toFixed(0)} %, the devices' processes ${mean(cpu.devices).toFixed(0)} %; peak memory: server RSS ${mib(peak.server)}, ` +
      `broker RSS ${mib(peak.broker)}, backends' private ${mib(peak.database)}`,
  );
  console.log(
    `  broker log: ${brokers.reduce((n, b) => n + logged(b.logFile, /Outgoing messages are being dropped/), 0)} "Outgoing messages are being dropped", ` +
      `${brokers.reduce((n, b) => n + logged(b.logFile, /socket count has been exceeded/), 0)} "socket count exceeded"; ` +
      `server logs: ${instances.reduce((n, i) => n + logged(i.logFile, /"level":(40|50|60)/), 0)} warnings or errors`,
  );
  if (restart)
    console.log(
      `  broker restart: down ${ms(restart.downMs)}; ` +
        (restart.backAfterMs === undefined
          ? `NOT every device back by the end (${final.connected} of ${DEVICES} connected)`
          : `every device back ${ms(restart.backAfterMs)} after it was up again`) +
        `; ${lost === 0 ? 'nothing lost' : `${lost} readings lost`}` +
        (missing > lost ? `, ${missing - lost} still held by their devices at the end` : ''),
    );
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await gone;
  clearTimeout(timer);
}

if (process.env.BENCH_DEVICES_ROLE === 'generator') generate();
else await main();
