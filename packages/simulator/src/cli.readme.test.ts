import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allDevicesFilter,
  bootstrapUsername,
  deviceTopic,
  encodePayload,
  identityFromUsername,
  mayPublish,
  maySubscribe,
  parseDeviceMessage,
  PROTOCOL_VERSION,
  type DeviceIdentity,
} from '@flowbox/shared';
import { parseCliOptions } from './cli.ts';
import { exampleFleet } from './example-fleet.ts';
import { startAedes, until, type TestBroker } from './test-helpers.ts';

/*
 * Issue #30: the README's device path, run as written. `npx flowbox-sim example-fleet > fleet.json`,
 * then `npx flowbox-sim --devices fleet.json --pair`, with no --broker, against a server whose
 * broker is not on 1883 (the README's `MQTT_PORT=1884 npm start` when 1883 is taken). The server is
 * reduced to its broker's checks (each identity and the shared ACL) and a pairing that an operator
 * started for the first example device and validates as soon as it asks. Each command starts Node
 * and tsx: tens of seconds on a busy machine, hence the long waits.
 */

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const BIN = fileURLToPath(new URL('../bin/flowbox-sim.mjs', import.meta.url));
const TSX = import.meta.resolve('tsx');
const SERVER = 'flowbox.server';
const [TO_PAIR, ALREADY_PAIRED] = exampleFleet();

/** A README command line with `npx flowbox-sim` run from this checkout's sources. */
function commandOf(line: string): string {
  const sim = `"${process.execPath}" --conditions=source --import ${TSX} "${BIN}"`;
  return `exec ${line.replace(/^npx flowbox-sim/, sim)}`;
}

type Run = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function runReadmeLine(line: string, dir: string, env: Record<string, string>): Run {
  const child = spawn('sh', ['-c', commandOf(line)], {
    cwd: dir,
    env: { ...process.env, FLOWBOX_SIM_FROM_SOURCE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The README's line that starts with `npx flowbox-sim` and holds `words`. */
function readmeLine(words: string): string {
  const line = README.split('\n').find((l) => l.includes(`npx flowbox-sim ${words}`));
  if (!line) throw new Error(`the README has no "npx flowbox-sim ${words}"`);
  return /npx flowbox-sim [^`]*/.exec(line)![0].trim();
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the README’s device path', () => {
  let broker: TestBroker;
  let server: MqttClient;
  let dir: string;
  /** Broker accounts: the server's, the factory identity of the device to pair, then paired devices'. */
  const secrets = new Map<string, string>();
  const identities = new WeakMap<Client, DeviceIdentity>();
  /** Device identities that signed in with their own credentials. */
  const signedIn: string[] = [];
  const handedOut = new Map<string, string>();
  let port: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fbx-sim-readme-'));
    const serverSecret = randomBytes(32).toString('base64url');
    secrets.set(SERVER, serverSecret);
    // The operator started the pairing with the first entry's serial and factory secret.
    secrets.set(bootstrapUsername(TO_PAIR!.serial), TO_PAIR!.factory_secret!);
    const aedes = await startAedes({
      authenticate: (client, username, password, done) => {
        const identity = identityFromUsername(username);
        if (
          username === undefined ||
          secrets.get(username) !== password?.toString() ||
          (!identity && username !== SERVER)
        ) {
          done(Object.assign(new Error('bad user name or password'), { returnCode: 4 as const }), false);
          return;
        }
        if (identity) identities.set(client, identity);
        if (identity?.role === 'device') signedIn.push(identity.serial);
        done(null, true);
      },
      authorizePublish: (client, packet, callback) => {
        const identity = client && identities.get(client);
        callback(
          !client || !identity || mayPublish(identity, packet.topic) ? null : new Error('foreign topic'),
        );
      },
      authorizeSubscribe: (client, subscription, callback) => {
        const identity = identities.get(client);
        if (identity && !maySubscribe(identity, subscription.topic)) callback(new Error('foreign topic'));
        else callback(null, subscription);
      },
    });
    broker = aedes;
    port = new URL(broker.url).port;
    server = await mqtt.connectAsync(broker.url, {
      username: SERVER,
      password: serverSecret,
      reconnectPeriod: 0,
    });
    await server.subscribeAsync(allDevicesFilter('pairing/request'), { qos: 1 });
    server.on('message', (topic, payload) => {
      const parsed = parseDeviceMessage(topic, payload);
      if (!parsed.ok || parsed.value.kind !== 'pairing/request') return;
      const { serial, message } = parsed.value;
      const answer = (response: object) =>
        void server.publishAsync(deviceTopic(serial, 'pairing/response'), encodePayload(response), {
          qos: 1,
        });
      answer({ v: PROTOCOL_VERSION, request_id: message.request_id, result: 'pending' });
      const password = randomBytes(32).toString('base64url');
      secrets.set(serial, password);
      handedOut.set(serial, password);
      answer({
        v: PROTOCOL_VERSION,
        request_id: message.request_id,
        result: 'accepted',
        username: serial,
        password,
        issued_at: new Date().toISOString(),
      });
    });
  });

  afterAll(async () => {
    await server?.endAsync();
    await broker?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('pairs the example device with no --broker when MQTT_PORT moved the broker, prints and keeps its password, runs it again without --pair', async () => {
    const env = { MQTT_PORT: port };
    const example = runReadmeLine(readmeLine('example-fleet'), dir, env);
    expect(await example.exited, example.output()).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8'))).toEqual(exampleFleet());

    const paired = runReadmeLine(readmeLine('--devices fleet.json --pair'), dir, env);
    try {
      await until(
        'the example device signs in with the password it was handed',
        () => signedIn.includes(TO_PAIR!.serial),
        90_000,
      );
      const password = handedOut.get(TO_PAIR!.serial)!;
      await until('its password printed', () => paired.output().includes(password), 10_000);
      // The broker it went to, said before anything else.
      expect(paired.output()).toContain(`mqtt://127.0.0.1:${port}`);
      // Kept in the fleet file: the next run signs in with it; the other entries are as they were.
      const kept = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as unknown[];
      expect(kept).toEqual([{ ...TO_PAIR, username: TO_PAIR!.serial, password }, ALREADY_PAIRED]);
      // The second example device's made-up password is refused: said, and the first one keeps running.
      await until(
        'the refused device named, the other one running',
        () =>
          paired.output().includes(`${ALREADY_PAIRED!.serial}: credentials refused`) &&
          paired.output().includes('flowbox-sim: 1 connected'),
        30_000,
      );
      expect(paired.child.exitCode).toBeNull();
    } finally {
      paired.child.kill('SIGINT');
    }
    expect(await paired.exited, paired.output()).toBe(0);

    const before = signedIn.filter((serial) => serial === TO_PAIR!.serial).length;
    const again = runReadmeLine('npx flowbox-sim --devices fleet.json', dir, env);
    try {
      await until(
        'the device signs in again with the kept password',
        () =>
          signedIn.filter((serial) => serial === TO_PAIR!.serial).length > before &&
          again.output().includes('flowbox-sim: 1 connected'),
        90_000,
      );
    } finally {
      again.child.kill('SIGINT');
    }
    expect(await again.exited, again.output()).toBe(0);
  }, 300_000);

  it('says where it looked and how to point it elsewhere when no broker answers, instead of waiting', async () => {
    const nowhere = String(await closedPort());
    const run = runReadmeLine('npx flowbox-sim --devices fleet.json --pair', dir, { MQTT_PORT: nowhere });
    const code = await run.exited;
    expect(code, run.output()).toBe(1);
    expect(run.output()).toContain(`127.0.0.1:${nowhere}`);
    expect(run.output()).toMatch(/--broker/);
    expect(run.output()).toMatch(/MQTT_PORT/);
  }, 120_000);
});

describe('flowbox-sim’s default broker', () => {
  it('is the one `npm start` runs: on MQTT_PORT when it is set, 1883 otherwise', () => {
    const broker = (env: NodeJS.ProcessEnv) => {
      const options = parseCliOptions([], env);
      if (options === 'help') throw new Error('help');
      return options.brokerUrl;
    };
    expect(broker({})).toBe('mqtt://127.0.0.1:1883');
    expect(broker({ MQTT_PORT: '1884' })).toBe('mqtt://127.0.0.1:1884');
    expect(() => parseCliOptions([], { MQTT_PORT: 'soon' })).toThrow('MQTT_PORT');
    const options = parseCliOptions(['--broker=mqtt://broker:1883'], { MQTT_PORT: '1884' });
    expect(options !== 'help' && options.brokerUrl).toBe('mqtt://broker:1883');
  });
});
