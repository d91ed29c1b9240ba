import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
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
/** Device accounts a dynamic-security message makes: ~1.1 KB each, under max_packet_size (64 KiB). */
const ACCOUNTS_PER_MESSAGE = 40;

export type FleetBroker = {
  port: number;
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
 * admin made by `mosquitto_ctrl dynsec init` and the server's account and role by
 * deploy/mosquitto-setup.sh. Never the machine's broker on 1883.
 */
export async function startFleetBroker(dir: string): Promise<FleetBroker> {
  const plugin = dynsecPlugin();
  if (!plugin) throw new Error('Mosquitto with dynamic security is not installed: apt-get install mosquitto');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  execFileSync('/usr/bin/mosquitto_ctrl', [
    'dynsec',
    'init',
    join(dir, 'dynamic-security.json'),
    ADMIN.username,
    ADMIN.password,
  ]);
  const conf = readFileSync(join(ROOT, 'deploy/mosquitto.conf'), 'utf8')
    .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
    .replaceAll('/mosquitto/data/', `${dir}/`)
    .replace('/usr/lib/mosquitto_dynamic_security.so', plugin);
  if (!conf.includes(`listener ${port} 127.0.0.1`))
    throw new Error('deploy/mosquitto.conf: no `listener 1883`');
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
      if (started.exitCode !== null || i > 100)
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
 * Each device's broker account, as the server makes it when a pairing is validated (its role with
 * `aclOf`'s ACL, its client bound to its serial as client id: device-accounts.ts), sent in batches
 * through the dynamic-security topic like the server's own commands.
 */
export async function createDeviceAccounts(broker: FleetBroker, devices: PairedBenchDevice[]): Promise<void> {
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const control = DynsecControl.connect(
    `mqtt://127.0.0.1:${broker.port}`,
    broker.admin,
    'bench-accounts',
    quiet,
  );
  await new Promise<void>((ready) => control.onReady(ready));
  try {
    for (let i = 0; i < devices.length; i += ACCOUNTS_PER_MESSAGE) {
      const commands = devices.slice(i, i + ACCOUNTS_PER_MESSAGE).flatMap(({ serial, password }) => {
        const rolename = roleOf(serial);
        return [
          { command: 'createRole', rolename, acls: aclOf(identityFromUsername(serial)!) },
          { command: 'createClient', username: serial, clientid: serial, password, roles: [{ rolename }] },
        ] satisfies DynsecCommand[];
      });
      const failed = (await control.run(commands)).find((answer) => answer.error);
      if (failed) throw new Error(`dynamic security: ${failed.command}: ${failed.error}`);
    }
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
