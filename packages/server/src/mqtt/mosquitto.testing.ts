import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { until } from '../flowboxes/testing.ts';
import { freePort } from '../test/harness.ts';
import { DYNSEC_TOPIC, type DynsecCommand, type DynsecResponse } from './dynsec.ts';

/*
 * A Mosquitto of the test's own, with the dynamic-security plugin, on a free loopback port and a
 * temporary configuration: never the machine's broker. Debian's `mosquitto` package has all three
 * files; `.ci/run` installs it.
 */

const BINARY = '/usr/sbin/mosquitto';
const CTRL = '/usr/bin/mosquitto_ctrl';
const PLUGINS = [
  '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
  '/usr/lib/mosquitto_dynamic_security.so',
];

/** The plugin's path when Mosquitto and its dynamic security are installed, else null. */
export function dynsecPlugin(): string | null {
  if (!existsSync(BINARY) || !existsSync(CTRL)) return null;
  return PLUGINS.find((p) => existsSync(p)) ?? null;
}

export type Account = { username: string; password: string };

export type TestMosquitto = {
  url: string;
  /** The dynamic-security admin (what MQTT_DYNSEC_USERNAME/PASSWORD name). */
  admin: Account;
  /** The server's own account, with the role docs/protocol.md gives it. */
  server: Account;
  /** The broker's URL signed in as the server (what MQTT_URL holds). */
  serverUrl: string;
  /** Sends dynamic-security commands as the admin, as an operator would with mosquitto_ctrl. */
  control: (commands: DynsecCommand[]) => Promise<DynsecResponse[]>;
  /** Stops the broker (its accounts stay in its file) and starts it again on the same port. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it for good and removes its files. */
  close: () => Promise<void>;
};

/** The server account's rights (docs/protocol.md "Credentials and the ACL"). */
export const SERVER_ACLS = [
  { acltype: 'publishClientSend', topic: 'flowbox/+/commands', allow: true },
  { acltype: 'publishClientSend', topic: 'flowbox/+/pairing/response', allow: true },
  { acltype: 'publishClientSend', topic: 'flowbox/+/confirm', allow: true },
  { acltype: 'publishClientSend', topic: 'flowbox/.server/probe/#', allow: true },
  { acltype: 'subscribePattern', topic: 'flowbox/#', allow: true },
  { acltype: 'subscribePattern', topic: '$share/+/flowbox/#', allow: true },
];

/**
 * `persistence`: the broker saves its sessions (and their subscriptions) on stop and restores them
 * on start, as a production Mosquitto with `persistence true` does.
 */
export async function startTestMosquitto(options: { persistence?: boolean } = {}): Promise<TestMosquitto> {
  const plugin = dynsecPlugin();
  if (!plugin)
    throw new Error(
      `Mosquitto with dynamic security is not installed (${BINARY}, ${CTRL}, mosquitto_dynamic_security.so): apt-get install mosquitto`,
    );
  const dir = mkdtempSync(join(tmpdir(), 'fbx-mosquitto-'));
  const port = await freePort();
  const admin = { username: 'flowbox.admin', password: 'admin-secret-for-tests' };
  const server = { username: 'flowbox.server', password: 'server-secret-for-tests' };
  const securityFile = join(dir, 'dynamic-security.json');
  execFileSync(CTRL, ['dynsec', 'init', securityFile, admin.username, admin.password], { stdio: 'ignore' });
  const configFile = join(dir, 'mosquitto.conf');
  writeFileSync(
    configFile,
    [
      `listener ${port} 127.0.0.1`,
      // Started as root, Mosquitto would switch to the `mosquitto` user, who cannot read this folder.
      `user ${userInfo().username}`,
      'per_listener_settings false',
      ...(options.persistence
        ? ['persistence true', `persistence_location ${dir}/`, 'autosave_interval 0']
        : ['persistence false']),
      `plugin ${plugin}`,
      `plugin_opt_config_file ${securityFile}`,
      '',
    ].join('\n'),
  );
  const url = `mqtt://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const kill = () => child?.kill('SIGKILL');
  // Whatever happens to the test, the broker does not outlive the process that started it.
  process.once('exit', kill);

  const start = async () => {
    const started = spawn(BINARY, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    started.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child = started;
    try {
      await until(() => started.exitCode === null && listening(port), 10_000);
    } catch {
      started.kill('SIGKILL');
      throw new Error(
        `mosquitto did not start on port ${port}: ${errors || readFileSync(configFile, 'utf8')}`,
      );
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  const control = async (commands: DynsecCommand[]): Promise<DynsecResponse[]> => {
    const client = await mqtt.connectAsync(url, { ...admin, protocolVersion: 5, reconnectPeriod: 0 });
    try {
      const answer = new Promise<DynsecResponse[]>((resolve) =>
        client.on('message', (_topic, payload) =>
          resolve((JSON.parse(payload.toString()) as { responses: DynsecResponse[] }).responses),
        ),
      );
      await client.subscribeAsync(`${DYNSEC_TOPIC}/response`);
      await client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands }));
      return await answer;
    } finally {
      await client.endAsync();
    }
  };

  await start();
  try {
    const answers = await control([
      { command: 'createRole', rolename: 'flowbox.server', acls: SERVER_ACLS },
      { command: 'createClient', ...server, roles: [{ rolename: 'flowbox.server' }] },
    ]);
    const failed = answers.find((a) => a.error);
    if (failed) throw new Error(`mosquitto set-up: ${failed.command}: ${failed.error}`);
  } catch (error) {
    await stop();
    process.removeListener('exit', kill);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    admin,
    server,
    serverUrl: `mqtt://${encodeURIComponent(server.username)}:${server.password}@127.0.0.1:${port}`,
    control,
    stop,
    start,
    close: async () => {
      await stop();
      process.removeListener('exit', kill);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
