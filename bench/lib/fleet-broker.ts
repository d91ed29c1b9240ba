import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { identityFromUsername } from '@flowbox/shared';
import { aclOf, roleOf } from '../../packages/server/src/mqtt/device-accounts.ts';
import { DynsecControl, type DynsecCommand } from '../../packages/server/src/mqtt/dynsec.ts';
import { dynsecPlugin } from '../../packages/server/src/mqtt/mosquitto.testing.ts';
import { freePort } from '../../packages/server/src/test/harness.ts';
import type { PairedBenchDevice } from './paired-devices.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN = { username: 'flowbox.admin', password: 'bench-admin-secret' };
const SERVER_PASSWORD = 'bench-server-secret';
/** Mosquitto 2.0's dynamic-security password hash: PBKDF2-SHA512, 101 iterations, 12 bytes of salt. */
const HASH_ITERATIONS = 101;

/** The loopback addresses each fleet broker listens on (all of 127/8 is loopback on Linux). */
const BROKER_HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];

export type FleetBroker = {
  port: number;
  /** Its addresses, all on `port`. */
  hosts: readonly string[];
  /** The broker signed in as the server's account (what MQTT_URL holds). */
  serverUrl: string;
  admin: { username: string; password: string };
  /** The running process's id (undefined while stopped). */
  pid: () => number | undefined;
  /** What the broker wrote (log_dest stdout), for its warnings. */
  logFile: string;
  /** Stops it (SIGTERM: it saves its sessions) and starts it again on the same port. */
  restart: () => Promise<{ downMs: number }>;
  close: () => Promise<void>;
};

/**
 * A Mosquitto of the bench's own, configured as production is: deploy/mosquitto.conf with its
 * listener moved to a free loopback port and its folders to `dir` (as the deploy test does), the
 * admin made by `mosquitto_ctrl dynsec init`, the devices' accounts (`writeDeviceAccounts`) and the
 * server's account and role by deploy/mosquitto-setup.sh. Never the machine's broker on 1883.
 */
export async function startFleetBroker(dir: string, devices: PairedBenchDevice[]): Promise<FleetBroker> {
  const plugin = dynsecPlugin();
  if (!plugin) throw new Error('Mosquitto with dynamic security is not installed: apt-get install mosquitto');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const securityFile = join(dir, 'dynamic-security.json');
  execFileSync('/usr/bin/mosquitto_ctrl', ['dynsec', 'init', securityFile, ADMIN.username, ADMIN.password]);
  writeDeviceAccounts(securityFile, devices);
  // One listener per address, the same port: devices spread over them (bench/devices.ts "Ephemeral ports").
  const listeners = BROKER_HOSTS.map((host) => `listener ${port} ${host}`).join('\n');
  const conf = readFileSync(join(ROOT, 'deploy/mosquitto.conf'), 'utf8')
    .replace(/^listener 1883$/m, listeners)
    .replaceAll('/mosquitto/data/', `${dir}/`)
    .replace('/usr/lib/mosquitto_dynamic_security.so', plugin);
  if (!conf.includes(listeners)) throw new Error('deploy/mosquitto.conf: no `listener 1883`');
  const configFile = join(dir, 'mosquitto.conf');
  // Started as root, Mosquitto would switch to the `mosquitto` user, who cannot read this folder.
  writeFileSync(configFile, `${conf}\nuser ${userInfo().username}\n`);
  const logFile = join(dir, 'mosquitto.log');
  let child: ChildProcess | undefined;
  const kill = () => child?.kill('SIGKILL');
  process.once('exit', kill);

  const start = async () => {
    const log = openSync(logFile, 'a');
    const started = spawn('/usr/sbin/mosquitto', ['-c', configFile], { stdio: ['ignore', log, log] });
    closeSync(log);
    child = started;
    for (let i = 0; !(await listening(port)); i++) {
      if (started.exitCode !== null || i > 600)
        throw new Error(`mosquitto did not start on port ${port}: ${readFileSync(logFile, 'utf8')}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGTERM');
    await exited;
  };

  await start();
  const setup = spawnSync('sh', [join(ROOT, 'deploy/mosquitto-setup.sh')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      BROKER_HOST: '127.0.0.1',
      BROKER_PORT: String(port),
      MQTT_ADMIN_PASSWORD: ADMIN.password,
      MQTT_SERVER_PASSWORD: SERVER_PASSWORD,
    },
  });
  if (setup.status !== 0) throw new Error(`deploy/mosquitto-setup.sh failed: ${setup.stdout}${setup.stderr}`);
  return {
    port,
    hosts: BROKER_HOSTS,
    serverUrl: `mqtt://flowbox.server:${SERVER_PASSWORD}@127.0.0.1:${port}`,
    admin: ADMIN,
    pid: () => child?.pid,
    logFile,
    restart: async () => {
      const t0 = performance.now();
      await stop();
      await start();
      return { downMs: performance.now() - t0 };
    },
    close: async () => {
      await stop();
      process.removeListener('exit', kill);
    },
  };
}

/**
 * Each device's broker account as the server makes it when a pairing is validated (its role with
 * `aclOf`'s ACL, its client bound to its serial as client id: device-accounts.ts), written into the
 * plugin's file before the broker starts. Through the control topic, as the server grants them, they
 * take far too long for a fleet: Mosquitto 2.0 answers each command slower as accounts grow
 * (`timeGrant`).
 */
function writeDeviceAccounts(file: string, devices: PairedBenchDevice[]): void {
  const config = JSON.parse(readFileSync(file, 'utf8')) as { clients: object[]; roles: object[] };
  for (const { serial, password } of devices) {
    const rolename = roleOf(serial);
    const salt = randomBytes(12);
    config.roles.push({ rolename, acls: aclOf(identityFromUsername(serial)!) });
    config.clients.push({
      username: serial,
      clientid: serial,
      password: pbkdf2Sync(password, salt, HASH_ITERATIONS, 64, 'sha512').toString('base64'),
      salt: salt.toString('base64'),
      iterations: HASH_ITERATIONS,
      roles: [{ rolename }],
    });
  }
  writeFileSync(file, JSON.stringify(config));
}

/**
 * How long the broker takes to make one device's account as the server does at a pairing (role and
 * client, one message), with the fleet's accounts already there: the broker serves nobody meanwhile.
 */
export async function timeGrant(broker: FleetBroker): Promise<number> {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const control = DynsecControl.connect(
    `mqtt://127.0.0.1:${broker.port}`,
    broker.admin,
    'bench-grant',
    quiet,
  );
  await new Promise<void>((ready) => control.onReady(ready));
  try {
    const serial = `BENCH-GRANT-${randomBytes(3).toString('hex')}`;
    const rolename = roleOf(serial);
    const t0 = performance.now();
    const answers = await control.run([
      { command: 'createRole', rolename, acls: aclOf(identityFromUsername(serial)!) },
      {
        command: 'createClient',
        username: serial,
        clientid: serial,
        password: 'x'.repeat(43),
        roles: [{ rolename }],
      },
    ] satisfies DynsecCommand[]);
    const failed = answers.find((answer) => answer.error);
    if (failed) throw new Error(`dynamic security: ${failed.command}: ${failed.error}`);
    return performance.now() - t0;
  } finally {
    await control.close();
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}
