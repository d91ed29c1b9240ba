import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import {
  AUTOTEST_RESULTS,
  FIRMWARE_MAX_BYTES,
  FLOWBOX_MODELS,
  MAX_TELEMETRY_INTERVAL_S,
  MIN_TELEMETRY_INTERVAL_S,
  SERIAL_PATTERN,
  WATER_POINT_TYPES,
  WATER_TEMPERATURES,
  ZONE_PROFILES,
  type AutotestResult,
  type FlowboxModel,
  type WaterPointType,
  type WaterTemperature,
  type ZoneProfile,
} from '@flowbox/shared';
import { scaledClock, systemClock } from './clock.ts';
import {
  FAULT_KINDS,
  type FaultKind,
  type FaultSpec,
  type WaterPointSpec,
  type ZoneSpec,
} from './consumption.ts';
import { createDevice, PairingRefusedError, type DeviceCredentials } from './device.ts';
import { exampleFleet } from './example-fleet.ts';
import { keepCredentials } from './fleet-file.ts';
import { FIRMWARE_FAULT_KINDS, type FirmwareFault, type FleetFirmwareFault } from './firmware-faults.ts';
import { createFleet, type FleetOptions, type OfflinePeriod } from './fleet.ts';

export const HELP = `flowbox-sim: simulated flowboxes speaking the device protocol (docs/protocol.md)

Usage: flowbox-sim [options]
       flowbox-sim example-fleet     print an example --devices file (README "fleet.json")

Broker and devices
  --broker <url>            MQTT broker (default: the one \`npm start\` runs,
                            mqtt://127.0.0.1:$MQTT_PORT, 1883 when MQTT_PORT is not set)
  --count <n>               simulate n devices named <prefix>-0001… (default 1); anonymous,
                            for brokers that allow it, unless --devices is given
  --serial-prefix <text>    prefix of generated serials (default SIM)
  --devices <file.json>     devices and their credentials, a JSON array of
                            { "serial", "username", "password", "factory_secret",
                              "profile", "timezone", "water_points", "model",
                              "water_temperature" } (only "serial" is required)
  --pair                    pair over the air first each device of --devices that has a
                            factory_secret and no password yet; print the credentials the
                            server hands out and keep them in the file; then run them all

Consumption (for devices whose file entry does not say)
  --profile <profile>       zone profile (default office): ${ZONE_PROFILES.join(', ')}
  --water-points <list>     water points as type:count,… (default toilet:4,sink:4)
                            types: ${WATER_POINT_TYPES.join(', ')}
  --timezone <iana>         the building's timezone (default Europe/Paris)
  --model <model>           ${FLOWBOX_MODELS.join(', ')} (default one_inch_v1)
  --water-temperature <t>   cold or hot (default cold)

Time
  --interval <s>            telemetry interval in seconds, ${MIN_TELEMETRY_INTERVAL_S}-${MAX_TELEMETRY_INTERVAL_S} (default 60)
  --speed <x>               simulated time runs x times faster than real time (default 1)
  --seed <n>                seed of all randomness: same seed, same water (default 1)
  --clock-skew <s>          devices' clocks run s seconds ahead (negative: behind)
  --heartbeat <s>           real seconds between presence heartbeats (default 60)
  --duration <s>            stop after s real seconds (default: run until Ctrl-C)

Faults and troubles
  --fault <kind[:serial]>   add a fault to every device, or to one: ${FAULT_KINDS.join(', ')}
                            (repeatable)
  --offline <start+len[:serial]>
                            take devices off the network from start for len simulated
                            seconds after the simulation starts, e.g. 300+120 (repeatable)
  --autotest-result <r>     what autotests find: ${AUTOTEST_RESULTS.join(', ')}
                            (default all_succeeded)

Firmware updates (update_firmware, docs/firmware.md)
  --firmware-retry <s>      real seconds before a failed download is tried again (default 2)
  --firmware-fault <fault[:share|:serial]>
                            a firmware fault for every device, a share of the fleet (0.05 or
                            5%, the devices picked by --seed) or one device (repeatable):
                              slow=<bytes/s>       download rate cap
                              interrupted=<bytes>  each connection cut after that many
                                                   bytes; the device resumes with Range
                              corrupt              a flipped byte: checksum_mismatch, fresh
                                                   downloads, then block_download_failed
                              rollback             the install fails: back on the old version
                              silent[=<pct>]       says nothing more once it has pct % of the
                                                   image (default 50): the server times it out

Load generation
  --load                    load-generator mode: no per-device lines, a rate report instead
  --connect-concurrency <n> connections opened at once (default 50)
  --report <s>              real seconds between rate reports (default 10)

  --help                    this text

Examples
  flowbox-sim --count 3 --speed 60 --fault running_toilet:SIM-0002
  flowbox-sim --devices fleet.json --broker mqtt://broker:1883 --profile housing
  flowbox-sim --load --count 5000 --interval 10 --report 5
  flowbox-sim --count 500 --firmware-fault corrupt:5% --firmware-fault slow=262144
`;

/** One device of a `--devices` file (README "fleet.json"). */
export type FleetFileEntry = {
  serial: string;
  username?: string;
  password?: string;
  factory_secret?: string;
  profile?: ZoneProfile;
  timezone?: string;
  water_points?: WaterPointSpec[];
  model?: FlowboxModel;
  water_temperature?: WaterTemperature;
};

export type CliOptions = {
  brokerUrl: string;
  devices: FleetFileEntry[];
  /** The `--devices` file, where `--pair` keeps the credentials it was handed. */
  devicesFile: string | null;
  pair: boolean;
  zone: ZoneSpec;
  model: FlowboxModel;
  waterTemperature: WaterTemperature;
  intervalS: number;
  speed: number;
  seed: number;
  clockSkewS: number;
  heartbeatS: number;
  durationS: number | null;
  faults: Array<{ kind: FaultKind; serial: string | null }>;
  offline: Array<{ startS: number; lengthS: number; serial: string | null }>;
  autotestResult: AutotestResult;
  firmwareFaults: FleetFirmwareFault[];
  firmwareRetryS: number;
  load: boolean;
  connectConcurrency: number;
  reportS: number;
};

export class CliError extends Error {}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`--${name}: "${value}" is not one of ${allowed.join(', ')}`);
}

function numberIn(name: string, value: string, min: number, max: number, integer = false): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw new CliError(
      `--${name}: "${value}" must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  return n;
}

function serialOf(name: string, value: string): string {
  if (!SERIAL_PATTERN.test(value)) throw new CliError(`--${name}: "${value}" is not a valid serial`);
  return value;
}

function parseWaterPoints(value: string): WaterPointSpec[] {
  return value.split(',').map((item) => {
    const [type = '', count = '1'] = item.trim().split(':');
    return {
      type: oneOf<WaterPointType>('water-points', type, WATER_POINT_TYPES),
      count: numberIn('water-points', count, 1, 10_000, true),
    };
  });
}

function parseDevicesFile(path: string): FleetFileEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`--devices: cannot read ${path}: ${(error as Error).message}`);
  }
  return parseDevices(json, path);
}

/** A fleet file's content (parsed JSON) checked entry by entry; `source` names it in errors. */
export function parseDevices(json: unknown, source: string): FleetFileEntry[] {
  if (!Array.isArray(json) || json.length === 0)
    throw new CliError(`--devices: ${source} must hold a non-empty JSON array`);
  return json.map((entry: unknown, index) => {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      !('serial' in entry) ||
      typeof entry.serial !== 'string'
    )
      throw new CliError(`--devices: entry ${index} has no "serial"`);
    serialOf('devices', entry.serial);
    const e = entry as FleetFileEntry;
    if (e.profile !== undefined) oneOf('devices', e.profile, ZONE_PROFILES);
    if (e.model !== undefined) oneOf('devices', e.model, FLOWBOX_MODELS);
    if (e.water_temperature !== undefined) oneOf('devices', e.water_temperature, WATER_TEMPERATURES);
    for (const point of e.water_points ?? []) oneOf('devices', point.type, WATER_POINT_TYPES);
    return e;
  });
}

/** A share of the fleet: `0.05` or `5%`. A serial holds neither a dot nor a percent sign. */
const SHARE_PATTERN = /^(\d*\.\d+|\d+(?:\.\d+)?%)$/;

/** `--firmware-fault kind[=value][:share|:serial]` (see HELP). */
function parseFirmwareFault(text: string, serials: ReadonlySet<string>): FleetFirmwareFault {
  const [spec = '', target] = text.split(':');
  const [name = '', value] = spec.split('=');
  const kind = oneOf('firmware-fault', name, FIRMWARE_FAULT_KINDS);
  const needed = (what: string) => {
    if (value === undefined) throw new CliError(`--firmware-fault: ${kind} needs =<${what}>`);
    return value;
  };
  const fault: FirmwareFault =
    kind === 'slow'
      ? { kind, bytesPerS: numberIn('firmware-fault', needed('bytes/s'), 1, 10 ** 9, true) }
      : kind === 'interrupted'
        ? { kind, afterBytes: numberIn('firmware-fault', needed('bytes'), 1, FIRMWARE_MAX_BYTES, true) }
        : kind === 'silent'
          ? { kind, atPct: numberIn('firmware-fault', value ?? '50', 0, 99) }
          : { kind };
  if (target === undefined) return { fault };
  if (SHARE_PATTERN.test(target)) {
    const share = target.endsWith('%') ? Number(target.slice(0, -1)) / 100 : Number(target);
    if (share > 1) throw new CliError(`--firmware-fault: "${target}" is more than the whole fleet`);
    return { fault, share };
  }
  if (!serials.has(target)) throw new CliError(`--firmware-fault: no simulated device is "${target}"`);
  return { fault, serials: [target] };
}

/**
 * The broker `npm start` embeds, on MQTT_PORT as the server reads it (README "Configuration"): a
 * simulator run beside a server moved off 1883 finds it, rather than whatever else holds 1883.
 */
function defaultBroker(env: NodeJS.ProcessEnv): string {
  const port = env.MQTT_PORT?.trim() || '1883';
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535)
    throw new CliError(`MQTT_PORT: "${env.MQTT_PORT}" is not a port (1 to 65535); or give --broker`);
  return `mqtt://127.0.0.1:${port}`;
}

/**
 * Reads the command line into options, or throws a CliError naming the bad option. `env` gives
 * MQTT_PORT, the default broker's port.
 */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        broker: { type: 'string' },
        count: { type: 'string', default: '1' },
        'serial-prefix': { type: 'string', default: 'SIM' },
        devices: { type: 'string' },
        pair: { type: 'boolean', default: false },
        profile: { type: 'string', default: 'office' },
        'water-points': { type: 'string', default: 'toilet:4,sink:4' },
        timezone: { type: 'string', default: 'Europe/Paris' },
        model: { type: 'string', default: 'one_inch_v1' },
        'water-temperature': { type: 'string', default: 'cold' },
        interval: { type: 'string', default: '60' },
        speed: { type: 'string', default: '1' },
        seed: { type: 'string', default: '1' },
        'clock-skew': { type: 'string', default: '0' },
        heartbeat: { type: 'string', default: '60' },
        duration: { type: 'string' },
        fault: { type: 'string', multiple: true, default: [] },
        offline: { type: 'string', multiple: true, default: [] },
        'autotest-result': { type: 'string', default: 'all_succeeded' },
        'firmware-fault': { type: 'string', multiple: true, default: [] },
        'firmware-retry': { type: 'string', default: '2' },
        load: { type: 'boolean', default: false },
        'connect-concurrency': { type: 'string', default: '50' },
        report: { type: 'string', default: '10' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  try {
    new Intl.DateTimeFormat('en', { timeZone: v.timezone });
  } catch {
    throw new CliError(`--timezone: "${v.timezone}" is not a timezone known here`);
  }
  const brokerUrl = v.broker ?? defaultBroker(env);
  try {
    const url = new URL(brokerUrl);
    if (!(url.protocol in BROKER_PORTS)) throw new Error();
  } catch {
    throw new CliError(`--broker: "${brokerUrl}" is not an mqtt://, mqtts://, ws:// or wss:// address`);
  }
  const prefix = v['serial-prefix'];
  const count = numberIn('count', v.count, 1, 100_000, true);
  const devices: FleetFileEntry[] = v.devices
    ? parseDevicesFile(v.devices)
    : Array.from({ length: count }, (_, i) => ({
        serial: serialOf('serial-prefix', `${prefix}-${String(i + 1).padStart(4, '0')}`),
      }));
  if (v.pair && !v.devices)
    throw new CliError('--pair: give --devices, a file with each device\'s "factory_secret"');
  // An entry with a password was paired before: it runs with it, and only the others pair.
  const unpairable = v.pair ? devices.find((d) => !d.factory_secret && d.password === undefined) : undefined;
  if (unpairable)
    throw new CliError(
      `--pair: device "${unpairable.serial}" has neither a "factory_secret" to pair with nor a "password"`,
    );
  const serials = new Set(devices.map((d) => d.serial));
  const target = (name: string, text: string) => {
    const [value = '', serial] = text.split(':');
    if (serial !== undefined && !serials.has(serial))
      throw new CliError(`--${name}: no simulated device is "${serial}"`);
    return { value, serial: serial ?? null };
  };
  return {
    brokerUrl,
    devices,
    devicesFile: v.devices ?? null,
    pair: v.pair,
    zone: {
      profile: oneOf('profile', v.profile, ZONE_PROFILES),
      water_points: parseWaterPoints(v['water-points']),
      timezone: v.timezone,
    },
    model: oneOf('model', v.model, FLOWBOX_MODELS),
    waterTemperature: oneOf('water-temperature', v['water-temperature'], WATER_TEMPERATURES),
    intervalS: numberIn('interval', v.interval, MIN_TELEMETRY_INTERVAL_S, MAX_TELEMETRY_INTERVAL_S, true),
    speed: numberIn('speed', v.speed, 0.001, 100_000),
    seed: numberIn('seed', v.seed, 0, 2 ** 32 - 1, true),
    clockSkewS: numberIn('clock-skew', v['clock-skew'], -86_400 * 365, 86_400 * 365),
    heartbeatS: numberIn('heartbeat', v.heartbeat, 1, 3600),
    durationS: v.duration === undefined ? null : numberIn('duration', v.duration, 0.1, 10 ** 9),
    faults: v.fault.map((text) => {
      const { value, serial } = target('fault', text);
      return { kind: oneOf('fault', value, FAULT_KINDS), serial };
    }),
    offline: v.offline.map((text) => {
      const { value, serial } = target('offline', text);
      const match = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(value);
      if (!match) throw new CliError(`--offline: "${text}" must look like START+LENGTH[:serial], in seconds`);
      return { startS: Number(match[1]), lengthS: Number(match[2]), serial };
    }),
    autotestResult: oneOf('autotest-result', v['autotest-result'], AUTOTEST_RESULTS),
    firmwareFaults: v['firmware-fault'].map((text) => parseFirmwareFault(text, serials)),
    firmwareRetryS: numberIn('firmware-retry', v['firmware-retry'], 0, 3600),
    load: v.load,
    connectConcurrency: numberIn('connect-concurrency', v['connect-concurrency'], 1, 10_000, true),
    reportS: numberIn('report', v.report, 0.1, 3600),
  };
}

/** The fleet the options describe, its simulated time starting at `startMs`. */
export function fleetOptionsFrom(options: CliOptions, startMs: number): FleetOptions {
  const devices: FleetOptions['devices'] = options.devices.map((entry): FleetOptions['devices'][number] => ({
    serial: entry.serial,
    credentials:
      entry.password === undefined
        ? undefined
        : { username: entry.username ?? entry.serial, password: entry.password },
    factorySecret: entry.factory_secret,
    zone: {
      profile: entry.profile ?? options.zone.profile,
      timezone: entry.timezone ?? options.zone.timezone,
      water_points: entry.water_points ?? options.zone.water_points,
    },
    model: entry.model ?? options.model,
    waterTemperature: entry.water_temperature ?? options.waterTemperature,
    clockSkewMs: options.clockSkewS * 1000,
    faults: options.faults
      .filter((f) => f.serial === null || f.serial === entry.serial)
      .map((f): FaultSpec => ({ kind: f.kind })),
    autotestResult: options.autotestResult,
    firmwareRetryDelayMs: options.firmwareRetryS * 1000,
  }));
  const offline: OfflinePeriod[] = options.offline.map((o) => ({
    from: startMs + o.startS * 1000,
    until: startMs + (o.startS + o.lengthS) * 1000,
    serials: o.serial === null ? undefined : [o.serial],
  }));
  return {
    brokerUrl: options.brokerUrl,
    devices,
    seed: options.seed,
    intervalS: options.intervalS,
    heartbeatMs: options.heartbeatS * 1000,
    // Check intervals often enough for the speed-up, never more than 20 times a second.
    tickMs: Math.max(50, Math.min(1000, (options.intervalS * 1000) / options.speed / 2)),
    offline,
    firmwareFaults: options.firmwareFaults,
    connectConcurrency: options.connectConcurrency,
  };
}

type Output = { log: (line: string) => void; error: (line: string) => void };

/** Each broker scheme's port when the URL names none. */
const BROKER_PORTS: Record<string, number> = {
  'mqtt:': 1883,
  'tcp:': 1883,
  'mqtts:': 8883,
  'ws:': 80,
  'wss:': 443,
};

/** The broker's address as people type it: its host and port, never a password in the URL. */
function brokerAddress(brokerUrl: string): { host: string; port: number; shown: string } {
  const url = new URL(brokerUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || BROKER_PORTS[url.protocol]);
  return { host, port, shown: `${url.protocol}//${url.host}` };
}

/** Whether anything takes a TCP connection at the broker's address (within 5 s). */
function brokerListens(brokerUrl: string): Promise<boolean> {
  const { host, port } = brokerAddress(brokerUrl);
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5000 });
    const answer = (listens: boolean) => {
      socket.destroy();
      resolve(listens);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
}

/** Real seconds without a word from the server before a pairing device says what may be wrong. */
const PAIRING_SILENCE_HINT_MS = 20_000;

/** Why one device's pairing ended without credentials, and what to do. */
function pairingFailure(error: unknown, broker: string): string {
  if (error instanceof PairingRefusedError) return `${error.message}; left out`;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && [4, 5, 0x86, 0x87].includes(code))
    return (
      `${broker} refused its factory identity: start a pairing on its zone's page with this serial ` +
      `and factory secret first, and check that this is the Flowbox server's broker; left out`
    );
  return `pairing failed: ${(error as Error).message}; left out`;
}

/**
 * \`--pair\`: each device of the file with a factory secret and no password yet pairs over the air,
 * all at once (each waits for its operator). The server hands a password out once, so it is printed
 * and kept in the file. A device refused is said and left out; the others run.
 */
async function pairDevices(options: CliOptions, out: Output): Promise<FleetFileEntry[]> {
  const broker = brokerAddress(options.brokerUrl).shown;
  const paired = await Promise.all(
    options.devices.map(async (entry): Promise<FleetFileEntry | null> => {
      if (entry.password !== undefined || !entry.factory_secret) {
        out.log(`${entry.serial}: paired before (its password is in the file)`);
        return entry;
      }
      // The device as the fleet will run it (its zone, model and versions in the request).
      const [own] = fleetOptionsFrom({ ...options, devices: [entry] }, Date.now()).devices;
      const device = createDevice({ ...own!, brokerUrl: options.brokerUrl, seed: options.seed });
      let heard = false;
      device.on('pairing', (step) => {
        heard = true;
        out.log(`${entry.serial}: pairing ${step}`);
      });
      out.log(`${entry.serial}: asking ${broker} to be paired…`);
      const silence = setTimeout(() => {
        if (!heard)
          out.log(
            `${entry.serial}: no answer yet from the server at ${broker}: is it the Flowbox server's broker (MQTT_PORT, --broker)?`,
          );
      }, PAIRING_SILENCE_HINT_MS);
      try {
        const credentials: DeviceCredentials = await device.pair();
        out.log(
          `${entry.serial}: paired; broker user name ${credentials.username}, password ${credentials.password}`,
        );
        if (options.devicesFile) {
          keepCredentials(options.devicesFile, entry.serial, credentials);
          out.log(`${entry.serial}: its credentials are kept in ${options.devicesFile} for the next runs`);
        }
        return { ...entry, username: credentials.username, password: credentials.password };
      } catch (error) {
        out.error(`${entry.serial}: ${pairingFailure(error, broker)}`);
        return null;
      } finally {
        clearTimeout(silence);
      }
    }),
  );
  return paired.filter((entry): entry is FleetFileEntry => entry !== null);
}

/** `flowbox-sim`: answers an exit code; stops on --duration, SIGINT/SIGTERM or the `stop` signal. */
export async function runCli(
  argv: string[],
  out: Output = { log: console.log, error: console.error },
  stop?: AbortSignal,
): Promise<number> {
  if (argv[0] === 'example-fleet') {
    out.log(JSON.stringify(exampleFleet(), null, 2));
    return 0;
  }
  let options;
  try {
    options = parseCliOptions(argv);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    out.error(`flowbox-sim: ${error.message}\nRun flowbox-sim --help for the options.`);
    return 2;
  }
  if (options === 'help') {
    out.log(HELP);
    return 0;
  }
  // Said first, and checked: a broker elsewhere than the user thinks is otherwise a silent wait.
  const broker = brokerAddress(options.brokerUrl);
  out.log(`flowbox-sim: broker ${broker.shown}`);
  if (!(await brokerListens(options.brokerUrl))) {
    out.error(
      `flowbox-sim: nothing answers at ${broker.host}:${broker.port}. Is the server running? If its broker ` +
        `listens elsewhere (MQTT_PORT=… npm start), give the same MQTT_PORT here, or --broker mqtt://host:port.`,
    );
    return 1;
  }
  const devices = options.pair ? await pairDevices(options, out) : options.devices;
  if (devices.length === 0) {
    out.error('flowbox-sim: no device left to run');
    return 1;
  }
  const startMs = Date.now();
  const clock = options.speed === 1 ? systemClock : scaledClock(options.speed, startMs);
  const fleet = createFleet({
    ...fleetOptionsFrom({ ...options, devices }, startMs),
    clock,
    // Waiting for the server's confirmation is real time, whatever the speed-up.
    protocolClock: systemClock,
    onProblem: (error, serial) => out.error(`${serial}: ${error.message}`),
    leaveOutRefused: true,
  });
  const loud = !options.load;
  for (const device of fleet.devices) {
    if (!loud) continue;
    device.on('command', (c) => out.log(`${device.serial}: command ${c.name} ${JSON.stringify(c.params)}`));
    device.on('revoked', () => out.error(`${device.serial}: credentials refused, the device was unpaired`));
  }
  out.log(`flowbox-sim: connecting ${fleet.devices.length} device(s) to ${broker.shown}…`);
  await fleet.start();
  const { connected } = fleet.stats();
  if (connected === 0) {
    await fleet.stop();
    out.error('flowbox-sim: no device could sign in');
    return 1;
  }
  out.log(`flowbox-sim: ${connected} connected; telemetry every ${options.intervalS} s at ×${options.speed}`);

  let last = { at: Date.now(), published: 0 };
  const report = setInterval(() => {
    const stats = fleet.stats();
    const now = Date.now();
    const rate = ((stats.published - last.published) * 1000) / Math.max(1, now - last.at);
    last = { at: now, published: stats.published };
    out.log(
      `t=${Math.round((now - startMs) / 1000)}s connected ${stats.connected}/${stats.devices} ` +
        `published ${stats.published} (${rate.toFixed(1)} msg/s) buffered ${stats.buffered}`,
    );
  }, options.reportS * 1000);

  await new Promise<void>((resolve) => {
    const end = () => {
      if (timer) clearTimeout(timer);
      process.off('SIGINT', end);
      process.off('SIGTERM', end);
      stop?.removeEventListener('abort', end);
      resolve();
    };
    const timer = options.durationS === null ? null : setTimeout(end, options.durationS * 1000);
    process.once('SIGINT', end);
    process.once('SIGTERM', end);
    stop?.addEventListener('abort', end);
  });
  clearInterval(report);
  await fleet.stop();
  const stats = fleet.stats();
  out.log(`flowbox-sim: stopped; ${stats.published} messages published`);
  return 0;
}
