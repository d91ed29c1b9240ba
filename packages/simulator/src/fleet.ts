import { HEARTBEAT_PERIOD_S, TELEMETRY_INTERVAL_S } from '@flowbox/shared';
import { systemClock, type Clock } from './clock.ts';
import { CredentialsRefusedError, SimulatedFlowbox, type DeviceOptions } from './device.ts';
import { firmwareFaultsBySerial, type FleetFirmwareFault } from './firmware-faults.ts';
import { deriveSeed } from './random.ts';

/** A stretch of simulated time during which some devices lose their network. */
export type OfflinePeriod = {
  /** Simulated epoch milliseconds. */
  from: number;
  until: number;
  /** The devices concerned; all when left out. */
  serials?: readonly string[];
};

export type FleetOptions = {
  /** Each device's own options, minus what the fleet sets for all. */
  devices: readonly Omit<DeviceOptions, 'brokerUrl' | 'clock' | 'protocolClock' | 'seed' | 'intervalS'>[];
  brokerUrl: string;
  clock?: Clock;
  /** The devices' clock for protocol timeouts (`DeviceOptions.protocolClock`); `clock` by default. */
  protocolClock?: Clock;
  seed?: number;
  intervalS?: number;
  /** Real milliseconds between heartbeats (docs/protocol.md), 60 s by default. */
  heartbeatMs?: number;
  /** Real milliseconds between checks of the devices' intervals; 1 s by default. */
  tickMs?: number;
  offline?: readonly OfflinePeriod[];
  /**
   * Firmware faults for a share of the fleet or for named devices (`--firmware-fault corrupt:0.05`),
   * added to each device's own; which devices carry a share follows the fleet's seed.
   */
  firmwareFaults?: readonly FleetFirmwareFault[];
  /** Connections opened at once on start, so thousands of devices do not storm the broker. */
  connectConcurrency?: number;
  /** Where devices' troubles go (network errors they ride out); printed on stderr by default. */
  onProblem?: (error: Error, serial: string) => void;
  /**
   * A device whose credentials the broker refuses on start (it emits `revoked`) is left out and the
   * others run (`flowbox-sim --devices`: one stale entry of a fleet file stops no other device).
   * By default the start fails, as the demo fleet wants (it pairs its devices again).
   */
  leaveOutRefused?: boolean;
};

export type FleetStats = { devices: number; connected: number; published: number; buffered: number };

export type Fleet = {
  devices: readonly SimulatedFlowbox[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Measures every device up to now: what the timer does, callable directly with a manual clock. */
  tick(): Promise<void>;
  stats(): FleetStats;
};

/**
 * Many simulated flowboxes against one broker (demo mode, tests, load generation). Each device gets
 * its own seed from the fleet's seed and its serial, and its intervals are spread over the period
 * so that the fleet's telemetry does not arrive in one burst.
 */
export function createFleet(options: FleetOptions): Fleet {
  const clock = options.clock ?? systemClock;
  const intervalS = options.intervalS ?? TELEMETRY_INTERVAL_S;
  const seed = options.seed ?? 1;
  const onProblem = options.onProblem ?? ((error, serial) => console.error(`${serial}: ${error.message}`));
  const firmwareFaults = firmwareFaultsBySerial(
    options.devices.map((d) => d.serial),
    options.firmwareFaults ?? [],
    seed,
  );
  const devices = options.devices.map((device) => {
    const flowbox = new SimulatedFlowbox({
      intervalPhaseMs: deriveSeed(seed, device.serial) % (intervalS * 1000),
      ...device,
      firmwareFaults: [...(device.firmwareFaults ?? []), ...(firmwareFaults.get(device.serial) ?? [])],
      brokerUrl: options.brokerUrl,
      clock,
      protocolClock: options.protocolClock ?? clock,
      seed,
      intervalS,
    });
    flowbox.on('problem', (error) => onProblem(error, flowbox.serial));
    return flowbox;
  });
  const offline = new Set<SimulatedFlowbox>();
  const leftOut = new Set<SimulatedFlowbox>();
  const running = () => devices.filter((d) => !leftOut.has(d));
  const timers: NodeJS.Timeout[] = [];

  async function startDevice(device: SimulatedFlowbox): Promise<void> {
    try {
      await device.start();
    } catch (error) {
      if (!(options.leaveOutRefused && error instanceof CredentialsRefusedError)) throw error;
      leftOut.add(device);
    }
  }

  /** Takes devices off and back on the network as the offline periods say. */
  async function applyOfflinePeriods(): Promise<void> {
    const now = clock.now();
    for (const device of running()) {
      const shouldBeOffline = (options.offline ?? []).some(
        (p) => now >= p.from && now < p.until && (!p.serials || p.serials.includes(device.serial)),
      );
      if (shouldBeOffline && !offline.has(device)) {
        offline.add(device);
        await device.goOffline();
      } else if (!shouldBeOffline && offline.has(device)) {
        offline.delete(device);
        await device.goOnline();
      }
    }
  }

  async function tick(): Promise<void> {
    await applyOfflinePeriods();
    for (const device of running()) device.tick();
  }

  function every(ms: number, task: () => Promise<void>): void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      task()
        .catch((error: Error) => onProblem(error, 'fleet'))
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  return {
    devices,
    async start() {
      const concurrency = Math.max(1, options.connectConcurrency ?? 50);
      for (let i = 0; i < devices.length; i += concurrency)
        await Promise.all(devices.slice(i, i + concurrency).map(startDevice));
      every(options.tickMs ?? 1000, tick);
      every(options.heartbeatMs ?? HEARTBEAT_PERIOD_S * 1000, async () => {
        await Promise.all(running().map((d) => d.heartbeat()));
      });
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all(devices.map((d) => d.stop()));
    },
    tick,
    stats() {
      return {
        devices: devices.length,
        connected: devices.filter((d) => d.connected).length,
        published: devices.reduce((sum, d) => sum + d.published, 0),
        buffered: devices.reduce((sum, d) => sum + d.buffered, 0),
      };
    },
  };
}
