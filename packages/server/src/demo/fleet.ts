import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDevice, createFleet, systemClock, type DeviceCredentials } from '@flowbox/simulator';
import { z } from 'zod';
import { makeActor, type Actor } from '../access/access.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { findFlowboxBySerial, liveSecretHash, secretMatches } from '../flowboxes/index.ts';
import { DEMO_ACCOUNTS, DEMO_FLEET_ZONES } from '../seed/index.ts';
import { findUserByEmail } from '../users/index.ts';
import { lastEventSequence, zonesOfCustomer, type FleetZone } from './fleet.repo.ts';
import { DEMO_SEED, seedDemoHistory, zoneSpec } from './history.ts';
import { playDemoLeaks } from './leaks.ts';

/** The first leak episode, when the caller does not say: ten minutes after start. */
const DEMO_FIRST_LEAK_MS = 600_000;
import type { FlowboxesService } from '../flowboxes/flowboxes.service.ts';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

export type DemoFleetOptions = {
  db: Db;
  flowboxes: FlowboxesService;
  /** The broker the devices sign in to: the embedded one, or MQTT_URL. */
  brokerUrl: string;
  dataDir: string;
  log: Logger;
  /** How long one device's pairing may take before it is given up (and logged). */
  pairingTimeoutMs?: number;
  /** Write the demo zones' past consumption (history.ts) before the devices run; true by default. */
  history?: boolean;
  /** The leak episodes (leaks.ts): how long after start the first one begins; false: none. */
  leaks?: { firstAfterMs: number } | false;
  /** The server's clock: where the history ends. */
  now?: () => Date;
};

export type DemoFleet = {
  /** Simulated flowboxes connected and reporting. */
  running: number;
  stop: () => Promise<void>;
};

/**
 * The devices' own secrets: the server stores only their hashes (docs/devices.md), so the demo
 * keeps them here to sign its devices in again after a restart. Demo data only, mode 0600.
 */
export const FLEET_FILE = 'demo-fleet.json';

const FleetFileSchema = z.object({
  devices: z.array(z.object({ zone_id: z.string(), serial: z.string(), password: z.string() })),
});
type SavedDevice = z.output<typeof FleetFileSchema>['devices'][number];

/** A device ready to run: paired, with working credentials and the counters to continue from. */
type ReadyDevice = {
  zone: FleetZone;
  flowboxId: string;
  credentials: DeviceCredentials;
  firstTelemetrySeq: number;
  firstEventSeq: number;
};

const NO_FLEET: DemoFleet = { running: 0, stop: async () => undefined };

/**
 * Issue #4: `npm start` with demo data shows live devices at once. For each demo zone of the
 * first demo customer, one simulated flowbox is paired through the real three steps (prepared and
 * validated as the demo customer manager, the device asking as `bootstrap.{serial}`), then runs
 * against the broker with the zone's water points, profile and building time zone. Nothing here
 * stops the server from starting: each failure is a warning and that device is left out.
 */
export async function startDemoFleet(options: DemoFleetOptions): Promise<DemoFleet> {
  return runFleet(options).catch((error: Error) => {
    options.log.warn({ err: error.message }, 'demo fleet not started');
    return NO_FLEET;
  });
}

async function runFleet(options: DemoFleetOptions): Promise<DemoFleet> {
  const { db, log } = options;
  const actor = await demoCustomerManager(db);
  if (!actor?.customerId) {
    log.warn({}, 'demo fleet not started: the demo customer manager is missing');
    return NO_FLEET;
  }
  const wanted = (await zonesOfCustomer(db, actor.customerId)).filter((zone) =>
    DEMO_FLEET_ZONES.some((z) => z.building === zone.buildingName && z.zone === zone.name),
  );
  const saved = readFleetFile(options.dataDir, log);
  const ready = await Promise.all(
    wanted.map((zone) =>
      readyDevice(options, actor, zone, saved.get(zone.path.zoneId)).catch((error: Error) => {
        log.warn({ zone: zone.name, err: error.message }, 'demo flowbox left out');
        return null;
      }),
    ),
  );
  const devices = ready.filter((device): device is ReadyDevice => device !== null);
  writeFleetFile(options.dataDir, devices);
  if (devices.length === 0) return NO_FLEET;
  if (options.history ?? true) {
    const started = Date.now();
    const written = await seedDemoHistory(db, devices, (options.now ?? (() => new Date()))());
    if (written > 0) log.info({ zones: written, ms: Date.now() - started }, 'demo history written');
  }
  const fleet = createFleet({
    brokerUrl: options.brokerUrl,
    seed: DEMO_SEED,
    devices: devices.map((device) => ({
      serial: device.credentials.username,
      credentials: device.credentials,
      zone: zoneSpec(device.zone),
      model: device.zone.model,
      waterTemperature: device.zone.waterTemperature,
      firstTelemetrySeq: device.firstTelemetrySeq,
      firstEventSeq: device.firstEventSeq,
    })),
    onProblem: (error, serial) => log.warn({ serial, err: error.message }, 'demo flowbox trouble'),
  });
  try {
    await fleet.start();
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'demo fleet not started');
    await fleet.stop();
    return NO_FLEET;
  }
  log.info({ count: devices.length }, 'demo fleet running');
  const leaks =
    options.leaks === false
      ? undefined
      : playDemoLeaks(
          devices.map((device, i) => ({ zone: device.zone.name, device: fleet.devices[i]! })),
          {
            startMs: systemClock.now(),
            firstAfterMs: options.leaks?.firstAfterMs ?? DEMO_FIRST_LEAK_MS,
            clock: systemClock,
            log,
          },
        );
  return {
    running: devices.length,
    stop: async () => {
      leaks?.stop();
      await fleet.stop();
    },
  };
}

/** The demo customer manager, as the service calls see a signed-in user (no session behind it). */
async function demoCustomerManager(db: Db): Promise<Actor | undefined> {
  const row = await findUserByEmail(db, DEMO_ACCOUNTS[1].email);
  return row ? makeActor(row, [], 'demo-fleet') : undefined;
}

/** The zone's serial: derived from the zone, so a restart looks for the same device. */
function serialOf(zone: FleetZone): string {
  return `DEMO-${zone.path.zoneId.slice(0, 8).toUpperCase()}`;
}

/**
 * Reuses the saved secret of a flowbox still paired to this zone; otherwise (no file, a refused
 * secret, a half-finished pairing, a flowbox moved) removes what is left and pairs it again.
 */
async function readyDevice(
  options: DemoFleetOptions,
  actor: Actor,
  zone: FleetZone,
  saved: SavedDevice | undefined,
): Promise<ReadyDevice> {
  const serial = serialOf(zone);
  const located = await findFlowboxBySerial(options.db, serial);
  if (saved && located && (await stillPaired(options.db, zone, located, saved))) {
    return {
      zone,
      flowboxId: located.flowbox.id,
      credentials: { username: serial, password: saved.password },
      firstTelemetrySeq: (located.flowbox.lastSequence ?? 0) + 1,
      firstEventSeq: (await lastEventSequence(options.db, located.flowbox.id)) + 1,
    };
  }
  if (located) await removeFlowbox(options.flowboxes, actor, located);
  const paired = await pairDevice(options, actor, zone, serial);
  options.log.info({ serial, zone: zone.name }, 'demo flowbox paired');
  return { zone, ...paired, firstTelemetrySeq: 1, firstEventSeq: 1 };
}

async function stillPaired(
  db: Db,
  zone: FleetZone,
  located: LocatedFlowbox,
  saved: SavedDevice,
): Promise<boolean> {
  if (located.flowbox.pairingState !== 'ready' || located.scope.zoneId !== zone.path.zoneId) return false;
  const hash = await liveSecretHash(db, located.flowbox.serial);
  return hash !== undefined && secretMatches(saved.password, hash);
}

/** Clears the way for a clean pairing: unpair a paired flowbox, detach one stuck mid-pairing. */
async function removeFlowbox(flowboxes: FlowboxesService, actor: Actor, located: LocatedFlowbox) {
  const path = { ...located.scope, flowboxId: located.flowbox.id };
  if (located.flowbox.pairingState === 'ready') await flowboxes.unpair(actor, path);
  else await flowboxes.detach(actor, path, located.flowbox.serial);
}

/** The three pairing steps (spec §4): prepare, the device asks with its factory secret, validate. */
async function pairDevice(
  options: DemoFleetOptions,
  actor: Actor,
  zone: FleetZone,
  serial: string,
): Promise<{ flowboxId: string; credentials: DeviceCredentials }> {
  const factorySecret = randomBytes(32).toString('base64url');
  const prepared = await options.flowboxes.prepare(actor, zone.path, {
    serial,
    factory_secret: factorySecret,
  });
  const device = createDevice({
    serial,
    brokerUrl: options.brokerUrl,
    factorySecret,
    zone: { profile: zone.profile, timezone: zone.timezone, water_points: [] },
    model: zone.model,
    waterTemperature: zone.waterTemperature,
    pairingRetryMs: 1000,
  });
  const answer = device.pair();
  // Settled here so a refusal never becomes an unhandled rejection; awaited below.
  answer.catch(() => undefined);
  const timeoutMs = options.pairingTimeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  while ((await findFlowboxBySerial(options.db, serial))?.flowbox.pairingState !== 'pending') {
    if (Date.now() > deadline) throw new Error(`${serial} did not ask for pairing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await options.flowboxes.validate(actor, { ...zone.path, flowboxId: prepared.id });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${serial} got no credentials within ${timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    return { flowboxId: prepared.id, credentials: await Promise.race([answer, late]) };
  } finally {
    clearTimeout(timer);
  }
}

function readFleetFile(dataDir: string, log: Logger): Map<string, SavedDevice> {
  const file = join(dataDir, FLEET_FILE);
  if (!existsSync(file)) return new Map();
  try {
    const parsed = FleetFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    return new Map(parsed.devices.map((device) => [device.zone_id, device]));
  } catch (error) {
    log.warn(
      { file, err: (error as Error).message },
      'demo fleet file unreadable: its flowboxes are paired again',
    );
    return new Map();
  }
}

function writeFleetFile(dataDir: string, devices: ReadyDevice[]): void {
  mkdirSync(dataDir, { recursive: true });
  const content: z.input<typeof FleetFileSchema> = {
    devices: devices.map((device) => ({
      zone_id: device.zone.path.zoneId,
      serial: device.credentials.username,
      password: device.credentials.password,
    })),
  };
  writeFileSync(join(dataDir, FLEET_FILE), `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
}
