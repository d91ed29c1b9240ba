import { EventEmitter } from 'node:events';
import mqtt, { type MqttClient } from 'mqtt';
import {
  bootstrapUsername,
  CONFIRM_TIMEOUT_S,
  deviceTopic,
  encodePayload,
  HEARTBEAT_PERIOD_S,
  MAX_TELEMETRY_INTERVAL_S,
  OFFLINE_BUFFER_MAX_MESSAGES,
  PAIRING_REQUEST_RETRY_S,
  parseCommand,
  parseConfirm,
  parsePairingResponse,
  PROTOCOL_VERSION,
  TELEMETRY_INTERVAL_S,
  TOPIC_QOS,
  type Ack,
  type AckRefusalReason,
  type AutotestResult,
  type Command,
  type DeviceEvent,
  type DeviceState,
  type DeviceVersions,
  type FlowboxModel,
  type PairingRefusalReason,
  type ParseFailureReason,
  type Presence,
  type RebootReason,
  type Telemetry,
  type ValveState,
  type WaterTemperature,
} from '@flowbox/shared';
import { systemClock, type Clock } from './clock.ts';
import {
  CLOSED,
  DeviceConnection,
  subscribe,
  type Connection,
  type DeviceCredentials,
} from './connection.ts';
import {
  ambientReading,
  ConsumptionModel,
  localTimeReader,
  type FaultSpec,
  type ZoneSpec,
} from './consumption.ts';
import type { FirmwareFault } from './firmware-faults.ts';
import { runFirmwareUpdate, type FirmwareReport, type UpdateFirmwareCommand } from './firmware-update.ts';
import { deriveSeed, seededRandom, type Random } from './random.ts';

/** Re-exported: callers take the device's whole surface from here (index.ts). */
export { CredentialsRefusedError, type DeviceCredentials } from './connection.ts';

export type DeviceOptions = {
  serial: string;
  /** `mqtt://host:port` (or `mqtts://`, `ws://`). */
  brokerUrl: string;
  /** The device's own credentials (docs/protocol.md); none for an anonymous test broker. */
  credentials?: DeviceCredentials;
  /** The factory secret, to pair over the air (`pair()`) as `bootstrap.{serial}`. */
  factorySecret?: string;
  zone: ZoneSpec;
  model?: FlowboxModel;
  waterTemperature?: WaterTemperature;
  versions?: DeviceVersions;
  /** Simulated true time: consumption follows it. Real time by default. */
  clock?: Clock;
  /**
   * The clock of the protocol's own waits (the server's confirmation, `CONFIRM_TIMEOUT_S`): `clock`
   * by default, so that tests move both at once. The CLI passes real time when it speeds simulated
   * time up, so that a speed-up does not shorten the wait and resend every reading.
   */
  protocolClock?: Clock;
  /** The device's clock runs this far ahead (negative: behind) of true time. */
  clockSkewMs?: number;
  /**
   * Each reading carries `sent_at`, the device's clock when it is published (docs/protocol.md
   * "Clocks"); false: an older device that leaves it out. Default true.
   */
  sentAt?: boolean;
  seed?: number;
  intervalS?: number;
  faults?: readonly FaultSpec[];
  /** What the next autotests find; all checks succeed by default. */
  autotestResult?: AutotestResult;
  /** Real milliseconds a reboot keeps the device away. */
  rebootDelayMs?: number;
  /** What goes wrong when it updates its firmware (`firmware-faults.ts`); nothing by default. */
  firmwareFaults?: readonly FirmwareFault[];
  /** Real milliseconds before a firmware download is tried again (2 s by default). */
  firmwareRetryDelayMs?: number;
  /**
   * Real milliseconds of the first wait before reconnecting after a network loss or a refused
   * CONNECT; it doubles with each failure in a row, jittered (docs/protocol.md "Reconnecting").
   */
  reconnectPeriodMs?: number;
  /** The longest wait between attempts (docs/protocol.md "Reconnecting": RECONNECT_MAX_S by default). */
  reconnectMaxMs?: number;
  /** Real milliseconds between pairing requests while waiting for an answer. */
  pairingRetryMs?: number;
  /** MQTT clean session: false (the default) lets the broker keep commands sent while offline. */
  cleanSession?: boolean;
  /**
   * The first interval ends this many milliseconds early, so that a fleet's devices report at
   * different moments of each period.
   */
  intervalPhaseMs?: number;
  /** Offline buffer size (docs/protocol.md "Offline buffering and replay"). */
  bufferLimit?: number;
  /** Readings in flight at once while the buffer drains (`REPLAY_WINDOW` by default; 1: one by one). */
  replayWindow?: number;
  /** Sequence numbers to continue from (a device restarted by the CLI keeps its counters). */
  firstTelemetrySeq?: number;
  firstEventSeq?: number;
};

/** What a device emits, for callers that watch it (tests, the CLI's report). */
export type DeviceNotices = {
  connected: [];
  disconnected: [];
  /** The broker refused the credentials: the device was unpaired (docs/protocol.md). */
  revoked: [];
  command: [Command];
  /** A message the device could not read: counted, never thrown. */
  unreadable: [ParseFailureReason];
  pairing: ['pending' | 'accepted'];
  /** A broker or network trouble the device rides out (it keeps reconnecting). */
  problem: [Error];
};

export class PairingRefusedError extends Error {
  constructor(readonly reason: PairingRefusalReason) {
    super(`pairing refused: ${reason}`);
  }
}

/** One message of the buffer, kept until it is done with (docs/protocol.md "Offline buffering and replay"). */
type Outgoing = {
  kind: 'telemetry' | 'events' | 'acks';
  topic: string;
  payload: string;
  /** A reading's sequence number, matched against the server's confirmations; null otherwise. */
  seq: number | null;
  /** A reading's payload without `sent_at`, stamped at each publication; null otherwise. */
  reading: Telemetry | null;
  /**
   * When the broker acknowledged this reading (protocol clock), kept until the server confirms it;
   * null while it is to be sent (again).
   */
  brokerAckedAt: number | null;
  /** The broker acknowledged it once already: counted once in `published`. */
  delivered: boolean;
};

/** What the device holds, counted: each number stays under a fixed bound whatever the network does. */
export type DeviceFootprint = {
  /** MQTT clients created and not yet closed: at most one. */
  clients: number;
  /** Messages in the buffer: at most the buffer limit. */
  buffered: number;
  /** Readings among them that the broker acknowledged and the server has not confirmed yet. */
  unconfirmed: number;
  /** Command outcomes remembered to answer redeliveries: at most `REMEMBERED_COMMANDS`. */
  rememberedCommands: number;
  /** Listeners on the device and on its current client. */
  deviceListeners: number;
  clientListeners: number;
  /** QoS 1 packets the current client waits an acknowledgement for, and waits on its closing. */
  inFlight: number;
  closeWaiters: number;
  /** A reconnection is scheduled (0 or 1). */
  reconnectTimers: number;
};

/** Autotest checks, in the order a flowbox runs them. */
const AUTOTEST_CHECKS = [
  'valve_close',
  'valve_open',
  'flowmeter',
  'temperature_sensor',
  'humidity_sensor',
  'network',
];

/**
 * Readings a device keeps in flight while it drains its buffer (docs/protocol.md "Offline buffering
 * and replay"): enough for an hour of minute readings in one batch, little enough for a small
 * device's memory.
 */
export const REPLAY_WINDOW = 64;

/** Remembered command outcomes, so a redelivered command is answered and never run twice. */
export const REMEMBERED_COMMANDS = 1000;

/**
 * One simulated flowbox speaking the real protocol (docs/protocol.md) through `@flowbox/shared`
 * only: telemetry, retained state and presence with a last will, events, command acks, an offline
 * buffer replayed in order, pairing, clock skew and faults.
 */
export class SimulatedFlowbox extends EventEmitter<DeviceNotices> {
  readonly serial: string;
  private readonly options: DeviceOptions;
  private readonly clock: Clock;
  private readonly protocolClock: Clock;
  private readonly random: Random;
  private readonly consumption: ConsumptionModel;
  private readonly localHour: (ms: number) => number;
  private readonly intervalMs: number;
  /** The connection's life cycle (connection.ts); what is said on it is this class's. */
  private readonly link: DeviceConnection;
  /** When it last sent a message the broker acknowledged (protocol clock): heartbeats only after a silence. */
  private lastSentAt = -Infinity;
  private outbox: Outgoing[] = [];
  private draining: Promise<boolean> | null = null;
  private readonly seen = new Map<string, Ack>();
  /** Reboot commands waiting for the reboot under way to finish (one reboot answers them all). */
  private readonly pendingRebootAcks = new Set<string>();
  private rebooting = false;
  private pendingRebootEvent = false;
  private rebootReason: RebootReason = 'command';
  /** Runs while the device is down in a reboot: a firmware install switches images there. */
  private installOnReboot: (() => void) | null = null;
  /** Called once a reboot is over and its event queued: a firmware update says how it ended. */
  private readonly afterReboot: Array<() => void> = [];
  /**
   * The firmware update under way (one at a time). One silenced by a fault stays, saying nothing,
   * until the device stops.
   */
  private firmwareUpdate: { commandId: string; silenced: boolean; abort: AbortController } | null = null;
  private telemetrySeq: number;
  private eventSeq: number;
  private lastWindowEnd: number;
  private lastAdvance: number;
  private partial = { volumeL: 0, flowS: 0 };
  private status: Omit<DeviceState, 'v' | 'at' | 'temperature_c' | 'humidity_pct'>;
  /** Messages the broker acknowledged (each counted once), for rate reports. */
  published = 0;
  /** Readings sent again because no confirmation came in time, or on a new connection. */
  resent = 0;
  /** Readings the server confirmed. */
  confirmed = 0;
  /** Messages dropped from a full buffer. */
  dropped = 0;
  /** Connections on which the broker refused the `confirm` subscription (PUBACK counted as done). */
  confirmRefusals = 0;

  constructor(options: DeviceOptions) {
    super();
    this.options = options;
    this.serial = options.serial;
    this.clock = options.clock ?? systemClock;
    this.protocolClock = options.protocolClock ?? this.clock;
    this.random = seededRandom(deriveSeed(options.seed ?? 1, options.serial));
    this.link = new DeviceConnection(
      options.serial,
      options,
      options.credentials,
      seededRandom(deriveSeed(options.seed ?? 1, `${options.serial}:reconnect`)),
      {
        will: () =>
          encodePayload({
            v: PROTOCOL_VERSION,
            at: this.stamp(),
            status: 'offline',
            reason: 'connection_lost',
          } satisfies Presence),
        opened: (connection) => this.onConnected(connection),
        closed: (wasOpen) => {
          this.resendUnconfirmed(Number.POSITIVE_INFINITY);
          if (wasOpen) this.emit('disconnected');
        },
        message: (topic, payload) => this.receive(topic, payload),
        problem: (error) => this.emit('problem', error),
        revoked: () => this.emit('revoked'),
      },
    );
    const model = options.model ?? 'one_inch_v1';
    this.consumption = new ConsumptionModel(options.zone, model, this.random, options.faults ?? []);
    const localTime = localTimeReader(options.zone.timezone);
    this.localHour = (ms) => localTime(ms).hour;
    this.intervalMs = (options.intervalS ?? TELEMETRY_INTERVAL_S) * 1000;
    this.telemetrySeq = options.firstTelemetrySeq ?? 1;
    this.eventSeq = options.firstEventSeq ?? 1;
    this.lastWindowEnd = this.clock.now() - (options.intervalPhaseMs ?? 0);
    this.lastAdvance = this.lastWindowEnd;
    const octet = (deriveSeed(7, options.serial) % 200) + 20;
    this.status = {
      valve: 'opened',
      maintenance_mode: false,
      leak_detection_mode: false,
      leak_detection_until: null,
      model,
      water_temperature: options.waterTemperature ?? 'cold',
      versions: options.versions ?? { esp: '5.1.2', board: 'B3', firmware: '2.4.0' },
      network: {
        interface: 'wifi',
        address: `10.20.0.${octet}`,
        gateway: '10.20.0.1',
        wifi_ssid: 'Flowbox-Sim',
      },
    };
  }

  /** The device's clock: true time plus its skew. Every timestamp it sends is from this clock. */
  deviceNow(): number {
    return this.clock.now() + (this.options.clockSkewMs ?? 0);
  }

  get connected(): boolean {
    return this.link.connected;
  }

  get valve(): ValveState {
    return this.status.valve;
  }

  get currentCredentials(): DeviceCredentials | undefined {
    return this.link.credentials;
  }

  /**
   * Messages the device holds (the offline buffer): not yet acknowledged by the broker, or readings
   * acknowledged by it and waiting for the server's confirmation.
   */
  get buffered(): number {
    return this.outbox.length;
  }

  /** Readings the broker acknowledged that the server has not confirmed yet. */
  get unconfirmed(): number {
    return this.outbox.filter((m) => m.brokerAckedAt !== null).length;
  }

  /** What the device holds, counted (tests, reports). */
  footprint(): DeviceFootprint {
    const client = this.link.connection?.client;
    return {
      clients: this.link.clients,
      buffered: this.outbox.length,
      unconfirmed: this.unconfirmed,
      rememberedCommands: this.seen.size,
      deviceListeners: listenerTotal(this),
      // An MqttClient is an EventEmitter whose typings narrow the event names.
      clientListeners: client ? listenerTotal(client as unknown as EventEmitter) : 0,
      inFlight: client ? Object.keys(client.outgoing).length : 0,
      closeWaiters: this.link.connection?.closeWaiters.size ?? 0,
      reconnectTimers: this.link.reconnectTimers,
    };
  }

  get nextTelemetrySeq(): number {
    return this.telemetrySeq;
  }

  /** The state message as the device would publish it now. */
  snapshot(): DeviceState {
    const ambient = ambientReading(this.random, this.localHour(this.clock.now()));
    return {
      v: PROTOCOL_VERSION,
      at: this.stamp(),
      ...this.status,
      temperature_c: ambient.temperatureC,
      humidity_pct: ambient.humidityPct,
    };
  }

  /**
   * Connects (with its last will) and keeps reconnecting after network losses until stopped.
   * Resolves once connected (or once stopped); rejects with `CredentialsRefusedError` when the
   * broker refuses the credentials. Calling it again while connecting waits for the same connection.
   */
  start(): Promise<void> {
    return this.link.start();
  }

  /** A clean stop: says `offline` / `shutdown`, then disconnects without firing the will. */
  async stop(): Promise<void> {
    this.firmwareUpdate?.abort.abort();
    this.firmwareUpdate = null;
    const connection = this.link.leave();
    if (!connection) return;
    if (connection.open)
      await this.link.whileOpen(connection, this.publishPresence(connection.client, 'offline', 'shutdown'));
    await this.link.whileOpen(connection, connection.client.endAsync());
    connection.client.end(true);
  }

  /**
   * The network goes away: the connection drops without a word, so the broker publishes the last
   * will. The device keeps measuring and buffers until `goOnline()`.
   */
  async goOffline(): Promise<void> {
    await this.link.leave()?.client.endAsync(true);
  }

  async goOnline(): Promise<void> {
    await this.start();
  }

  /**
   * Subscribes to its commands and to the server's confirmations, announces itself, then sends its
   * buffer. A broker that refuses the `confirm` subscription (a Mosquitto role made before it
   * existed) leaves the device on the older rule for this connection: a reading is done once the
   * broker has acknowledged it. The two are asked for apart, so that one refusal cannot hide the
   * other's grant.
   */
  private async onConnected(connection: Connection): Promise<void> {
    const { client } = connection;
    const commands = deviceTopic(this.serial, 'commands');
    const commandsGranted = await this.link.whileOpen(
      connection,
      subscribe(client, commands, TOPIC_QOS.commands),
    );
    if (commandsGranted === CLOSED) return;
    if (!commandsGranted) this.emit('problem', new Error(`${this.serial}: the broker refused ${commands}`));
    const confirms = deviceTopic(this.serial, 'confirm');
    const confirmsGranted = await this.link.whileOpen(
      connection,
      subscribe(client, confirms, TOPIC_QOS.confirm),
    );
    if (confirmsGranted === CLOSED) return;
    connection.confirms = confirmsGranted;
    if (!confirmsGranted) this.noteConfirmRefused();
    if ((await this.link.whileOpen(connection, this.publishPresence(client, 'online'))) === CLOSED) return;
    if ((await this.link.whileOpen(connection, this.publishState())) === CLOSED) return;
    this.emit('connected');
    this.completeReboot();
    void this.drain();
  }

  /** Counted on every such connection; said once, so that a fleet's log is not flooded. */
  private noteConfirmRefused(): void {
    this.confirmRefusals += 1;
    if (this.confirmRefusals > 1) return;
    this.emit(
      'problem',
      new Error(
        `${this.serial}: the broker refused the confirm subscription; readings count as delivered ` +
          'once the broker acknowledges them (update the broker ACL, docs/protocol.md)',
      ),
    );
  }

  private receive(topic: string, payload: Buffer): void {
    if (topic === deviceTopic(this.serial, 'commands')) this.receiveCommand(payload);
    else if (topic === deviceTopic(this.serial, 'confirm')) this.receiveConfirmation(payload);
  }

  /**
   * The heartbeat: `online` again, retained, only when the device sent nothing for a heartbeat
   * period (docs/protocol.md "Presence and heartbeat": any message tells the server it is there).
   */
  async heartbeat(): Promise<void> {
    const client = this.link.connection?.client;
    if (!client?.connected) return;
    if (this.protocolClock.now() - this.lastSentAt < HEARTBEAT_PERIOD_S * 1000) return;
    await this.publishPresence(client, 'online');
  }

  private async publishPresence(client: MqttClient, status: 'online'): Promise<void>;
  private async publishPresence(
    client: MqttClient,
    status: 'offline',
    reason: 'shutdown' | 'reboot',
  ): Promise<void>;
  private async publishPresence(
    client: MqttClient,
    status: 'online' | 'offline',
    reason?: 'shutdown' | 'reboot',
  ): Promise<void> {
    const presence: Presence =
      status === 'online'
        ? { v: PROTOCOL_VERSION, at: this.stamp(), status }
        : { v: PROTOCOL_VERSION, at: this.stamp(), status, reason: reason ?? 'shutdown' };
    // Marked as it leaves: a heartbeat asked again before its PUBACK is not sent twice.
    this.lastSentAt = this.protocolClock.now();
    await client.publishAsync(deviceTopic(this.serial, 'presence'), encodePayload(presence), {
      qos: 1,
      retain: true,
    });
  }

  /** State is never buffered: only the latest matters, and it is sent again on every connection. */
  private async publishState(): Promise<void> {
    const client = this.link.connection?.open ? this.link.connection.client : undefined;
    if (!client) return;
    this.lastSentAt = this.protocolClock.now();
    await client.publishAsync(deviceTopic(this.serial, 'state'), encodePayload(this.snapshot()), {
      qos: 1,
      retain: true,
    });
  }

  private changeState(): void {
    this.publishState().catch((error: Error) => this.emit('problem', error));
  }

  private stamp(): string {
    return new Date(this.deviceNow()).toISOString();
  }

  /**
   * Measures up to now: one telemetry message per finished interval (on the device's own interval
   * grid), and the leak-detection timeout. Called by the fleet's timer, or by tests after moving a
   * manual clock.
   */
  tick(): void {
    this.checkLeakDetectionTimeout();
    const now = this.clock.now();
    // Only intervals that are over: a reading never ends in the device's future (its `at`).
    while (now - this.lastWindowEnd >= this.intervalMs) {
      const windowEnd = this.lastWindowEnd + this.intervalMs;
      this.measureUntil(windowEnd);
      this.emitTelemetry(windowEnd);
      this.lastWindowEnd = windowEnd;
    }
    this.checkConfirmationTimeout();
  }

  /** Readings unconfirmed `CONFIRM_TIMEOUT_S` after the broker's acknowledgement go again. */
  private checkConfirmationTimeout(): void {
    const due = this.protocolClock.now() - CONFIRM_TIMEOUT_S * 1000;
    if (this.resendUnconfirmed(due) > 0 && this.connected) void this.drain();
  }

  private measureUntil(t: number): void {
    if (t <= this.lastAdvance) return;
    const reading = this.consumption.advance(this.lastAdvance, t, this.status.valve === 'opened');
    this.partial.volumeL += reading.volumeL;
    this.partial.flowS += reading.flowS;
    this.lastAdvance = t;
  }

  private emitTelemetry(windowEnd: number): void {
    const intervalS = Math.min(MAX_TELEMETRY_INTERVAL_S, Math.round(this.intervalMs / 1000));
    const ambient = ambientReading(this.random, this.localHour(windowEnd));
    const telemetry: Telemetry = {
      v: PROTOCOL_VERSION,
      seq: this.telemetrySeq++,
      at: new Date(windowEnd + (this.options.clockSkewMs ?? 0)).toISOString(),
      interval_s: intervalS,
      volume_l: Math.round(this.partial.volumeL * 1000) / 1000,
      flow_s: Math.min(intervalS, this.partial.flowS),
      temperature_c: ambient.temperatureC,
      humidity_pct: ambient.humidityPct,
    };
    this.partial = { volumeL: 0, flowS: 0 };
    this.enqueue('telemetry', telemetry);
  }

  private checkLeakDetectionTimeout(): void {
    const until = this.status.leak_detection_until;
    if (!this.status.leak_detection_mode || until === null || this.deviceNow() < Date.parse(until)) return;
    this.status.leak_detection_mode = false;
    this.status.leak_detection_until = null;
    this.emitEvent({ type: 'leak_detection_timeout' });
    this.changeState();
  }

  /** Faults can be injected and cleared while the device runs. */
  setFaults(faults: readonly FaultSpec[]): void {
    this.measureUntil(this.clock.now());
    this.consumption.setFaults(faults);
  }

  /** Someone turns the valve by hand (spec §4 "events for actions done on the device"). */
  operateValveByHand(valve: ValveState): void {
    this.setValve(valve);
    this.emitEvent({ type: 'valve_operated_by_hand', valve });
    this.changeState();
  }

  /** The maintenance button on the device (spec §4 "it can also be enabled from the device"). */
  setMaintenanceOnDevice(enabled: boolean): void {
    this.status.maintenance_mode = enabled;
    this.emitEvent({ type: 'maintenance_mode_set_on_device', enabled });
    this.changeState();
  }

  private setValve(valve: ValveState): void {
    // Water measured so far flowed with the valve as it was.
    this.measureUntil(this.clock.now());
    this.status.valve = valve;
    if (valve === 'closed') this.consumption.valveClosed();
  }

  private emitEvent(event: DistributiveOmit<DeviceEvent, 'v' | 'seq' | 'at'>): void {
    this.enqueue('events', { v: PROTOCOL_VERSION, seq: this.eventSeq++, at: this.stamp(), ...event });
  }

  private receiveCommand(payload: Buffer): void {
    const parsed = parseCommand(payload);
    if (!parsed.ok) {
      this.emit('unreadable', parsed.reason);
      if (parsed.commandId === null) return;
      const reason: AckRefusalReason =
        parsed.reason === 'unknown_command' || parsed.reason === 'unsupported_version'
          ? parsed.reason
          : 'invalid_params';
      this.finish(parsed.commandId, 'refused', reason);
      return;
    }
    const command = parsed.message;
    const known = this.seen.get(command.id);
    if (known) {
      // A redelivery or a retry: say again what happened, never do it twice.
      this.enqueue('acks', { ...known, at: this.stamp() });
      return;
    }
    if (this.firmwareUpdate?.commandId === command.id) {
      // The update under way: still accepted, never started twice; a silenced one says nothing.
      if (!this.firmwareUpdate.silenced) this.acknowledge(command.id, 'accepted');
      return;
    }
    if (this.pendingRebootAcks.has(command.id)) {
      // A reboot under way: it is still accepted, and one reboot is enough.
      this.acknowledge(command.id, 'accepted');
      return;
    }
    this.emit('command', command);
    if (this.deviceNow() > Date.parse(command.expires_at)) {
      this.finish(command.id, 'expired');
      return;
    }
    this.execute(command);
  }

  private execute(command: Command): void {
    switch (command.name) {
      case 'open_valve':
      case 'close_valve':
        this.setValve(command.name === 'open_valve' ? 'opened' : 'closed');
        this.changeState();
        this.finish(command.id, 'done');
        return;
      case 'set_maintenance_mode':
        this.status.maintenance_mode = command.params.enabled;
        this.changeState();
        this.finish(command.id, 'done');
        return;
      case 'set_leak_detection_mode':
        this.status.leak_detection_mode = command.params.enabled;
        this.status.leak_detection_until = command.params.enabled
          ? new Date(this.deviceNow() + command.params.timeout_s * 1000).toISOString()
          : null;
        this.changeState();
        this.finish(command.id, 'done');
        return;
      case 'autotest':
        this.acknowledge(command.id, 'accepted');
        this.runAutotest(command.id);
        this.finish(command.id, 'done');
        return;
      case 'reboot':
        this.acknowledge(command.id, 'accepted');
        this.pendingRebootAcks.add(command.id);
        this.reboot('command').catch((error: Error) => this.emit('problem', error));
        return;
      case 'update_firmware':
        if (this.firmwareUpdate) {
          this.finish(command.id, 'refused', 'busy');
          return;
        }
        this.acknowledge(command.id, 'accepted');
        this.updateFirmware(command);
        return;
    }
  }

  /** docs/firmware.md "Device protocol": the update runs on its own; its final ack ends it. */
  private updateFirmware(command: UpdateFirmwareCommand): void {
    const { update_id, version } = command.params;
    const run = { commandId: command.id, silenced: false, abort: new AbortController() };
    this.firmwareUpdate = run;
    const device = {
      serial: this.serial,
      model: this.status.model,
      secret: this.link.credentials?.password,
      faults: this.options.firmwareFaults ?? [],
      retryDelayMs: this.options.firmwareRetryDelayMs ?? 2000,
      now: () => this.protocolClock.now(),
      report: (report: FirmwareReport) =>
        this.emitEvent({ type: 'firmware_progress', update_id, version, ...report }),
      install: (newVersion: string, rollsBack: boolean) => this.installFirmware(newVersion, rollsBack),
    };
    runFirmwareUpdate(device, command.params, run.abort.signal)
      .then((end) => {
        if (end.ack === null && end.silenced) {
          run.silenced = true;
          return;
        }
        if (this.firmwareUpdate === run) this.firmwareUpdate = null;
        if (end.ack === 'done') this.finish(command.id, 'done');
        else if (end.ack === 'refused') this.finish(command.id, 'refused', end.reason);
      })
      .catch((error: Error) => this.emit('problem', error));
  }

  /**
   * Reboots into the new image (`versions.firmware` changes while the device is down, so the state
   * it publishes on its return carries it), or, rolling back, into the old one.
   */
  private installFirmware(version: string, rollsBack: boolean): Promise<void> {
    return new Promise((resolve) => {
      this.afterReboot.push(resolve);
      this.installOnReboot = () => {
        if (!rollsBack) this.status.versions = { ...this.status.versions, firmware: version };
      };
      this.reboot('firmware_update').catch((error: Error) => this.emit('problem', error));
    });
  }

  private runAutotest(commandId: string | null): void {
    const result = this.options.autotestResult ?? 'all_succeeded';
    const checks =
      result === 'none'
        ? []
        : AUTOTEST_CHECKS.map((name, index) => ({ name, result: checkResult(result, index) }));
    this.emitEvent({ type: 'autotest_result', command_id: commandId, result, checks });
  }

  /**
   * A reboot: `offline`/`reboot` presence, a clean disconnect (no will), back after the reboot
   * delay (unless stopped meanwhile), then the `reboot` event with its reason (and the commands'
   * final acks). One at a time: a reboot asked for during another is that one.
   */
  async reboot(reason: RebootReason): Promise<void> {
    if (this.rebooting) return;
    this.rebooting = true;
    try {
      this.rebootReason = reason;
      await this.flush();
      // Away on purpose: no reconnection until the reboot is over.
      const connection = this.link.detach();
      if (connection) {
        if (connection.open)
          await this.link.whileOpen(connection, this.publishPresence(connection.client, 'offline', 'reboot'));
        await this.link.whileOpen(connection, connection.client.endAsync());
        connection.client.end(true);
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.rebootDelayMs ?? 1000));
      this.installOnReboot?.();
      this.installOnReboot = null;
      this.pendingRebootEvent = true;
      if (this.link.wantsOnline) await this.start();
    } finally {
      this.rebooting = false;
    }
  }

  private completeReboot(): void {
    if (!this.pendingRebootEvent) return;
    this.pendingRebootEvent = false;
    this.emitEvent({ type: 'reboot', reason: this.rebootReason });
    for (const commandId of this.pendingRebootAcks) this.finish(commandId, 'done');
    this.pendingRebootAcks.clear();
    for (const resume of this.afterReboot.splice(0)) resume();
  }

  private acknowledge(commandId: string, result: 'accepted'): void {
    this.enqueue('acks', {
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: this.stamp(),
      result,
      reason: null,
    } satisfies Ack);
  }

  private finish(
    commandId: string,
    result: 'done' | 'expired' | 'refused',
    reason: AckRefusalReason | null = null,
  ): void {
    const ack: Ack = { v: PROTOCOL_VERSION, command_id: commandId, at: this.stamp(), result, reason };
    this.seen.set(commandId, ack);
    if (this.seen.size > REMEMBERED_COMMANDS) this.seen.delete(this.seen.keys().next().value ?? '');
    this.enqueue('acks', ack);
  }

  /**
   * Everything that must reach the server goes through one FIFO buffer, replayed in order. A full
   * buffer drops its oldest reading (unsent or unconfirmed alike); with no reading left, its oldest
   * ack (the server asks again until it has a final one, and the device answers from memory),
   * and only then its oldest event, so that the buffer stays bounded whatever arrives.
   */
  private enqueue(kind: 'events' | 'acks', message: object): void;
  private enqueue(kind: 'telemetry', message: Telemetry): void;
  private enqueue(kind: 'telemetry' | 'events' | 'acks', message: object): void {
    this.outbox.push({
      kind,
      topic: deviceTopic(this.serial, kind),
      payload: encodePayload(message),
      seq: kind === 'telemetry' ? (message as Telemetry).seq : null,
      reading: kind === 'telemetry' ? (message as Telemetry) : null,
      brokerAckedAt: null,
      delivered: false,
    });
    const limit = this.options.bufferLimit ?? OFFLINE_BUFFER_MAX_MESSAGES;
    while (this.outbox.length > limit) {
      this.outbox.splice(this.dropIndex(), 1);
      this.dropped += 1;
    }
    // After the current task: the readings of one tick leave together, in one window.
    if (this.connected) queueMicrotask(() => void this.drain());
  }

  private dropIndex(): number {
    for (const kind of ['telemetry', 'acks'] as const) {
      const index = this.outbox.findIndex((m) => m.kind === kind);
      if (index !== -1) return index;
    }
    return 0;
  }

  /**
   * A confirmation from the server: the readings it covers are done with, whatever their state
   * (one sent again and confirmed meanwhile goes too). Nothing else removes a reading from a
   * connection whose broker granted the `confirm` subscription.
   */
  private receiveConfirmation(payload: Buffer): void {
    const parsed = parseConfirm(payload);
    if (!parsed.ok) {
      this.emit('unreadable', parsed.reason);
      return;
    }
    const ranges = parsed.message.telemetry;
    const covered = (seq: number | null) =>
      seq !== null && ranges.some(([first, last]) => seq >= first && seq <= last);
    const before = this.outbox.length;
    this.outbox = this.outbox.filter((m) => !covered(m.seq));
    this.confirmed += before - this.outbox.length;
  }

  /**
   * Readings the broker acknowledged before `ackedBefore` (protocol clock) and the server has not
   * confirmed are to be sent again, same seq and same payload, in their place in the buffer.
   */
  private resendUnconfirmed(ackedBefore: number): number {
    let count = 0;
    for (const message of this.outbox) {
      if (message.brokerAckedAt === null || message.brokerAckedAt > ackedBefore) continue;
      message.brokerAckedAt = null;
      count += 1;
    }
    this.resent += count;
    return count;
  }

  /**
   * Sends the buffer in order. A message counts as delivered once the broker has acknowledged it;
   * a reading then stays until the server confirms it (docs/protocol.md "Confirmation of committed
   * readings"), events and acks go. A connection lost mid-way leaves the rest (and the
   * unacknowledged ones, sent again with the same sequence number) for the next connection.
   * Consecutive readings go out as a window of up to `replayWindow` in flight, so a replayed buffer
   * reaches the server's batch writer many at a time instead of one round trip (and one
   * transaction) per reading; events and acks go one at a time, each after everything before it,
   * so the server sees them in order with the readings.
   */
  private drain(): Promise<boolean> {
    this.draining ??= this.sendBuffered().then((stopped) => {
      this.draining = null;
      // A message queued between the last send and this moment must not wait for the next one;
      // after a failed send, the next connection (or message) drains again, never a loop here.
      if (!stopped && this.connected && this.nextWindow().length > 0) void this.drain();
      return stopped;
    });
    return this.draining;
  }

  /** Sends windows while there are any; true when a send failed or the connection went away. */
  private async sendBuffered(): Promise<boolean> {
    for (;;) {
      const connection = this.link.connection;
      if (!connection?.open) return true;
      const window = this.nextWindow();
      if (window.length === 0) return false;
      const { client } = connection;
      // One write for the whole window: the broker reads it as one chunk, the server as one batch.
      client.stream.cork();
      const publishing = window.map((message) =>
        client.publishAsync(message.topic, this.stamped(message), { qos: 1 }).then(
          () => true,
          () => false,
        ),
      );
      process.nextTick(() => client.stream.uncork());
      const sent = await this.link.whileOpen(connection, Promise.all(publishing));
      if (sent === CLOSED) return true;
      this.recordDelivery(window, sent, connection.confirms);
      if (sent.includes(false)) return true;
    }
  }

  /**
   * A message as it leaves: a reading gets `sent_at`, the device's clock now, so the server tells how
   * old it is from how far off the clock is (docs/protocol.md "Clocks"); sent again, stamped again.
   */
  private stamped(message: Outgoing): string {
    if (message.reading === null || this.options.sentAt === false) return message.payload;
    return encodePayload({ ...message.reading, sent_at: new Date(this.deviceNow()).toISOString() });
  }

  /** What the broker acknowledged: done, or (a reading the server confirms) kept until confirmed. */
  private recordDelivery(window: Outgoing[], sent: boolean[], confirms: boolean): void {
    const now = this.protocolClock.now();
    if (sent.includes(true)) this.lastSentAt = now;
    const done = new Set<Outgoing>();
    window.forEach((message, i) => {
      if (!sent[i]) return;
      if (!message.delivered) this.published += 1;
      message.delivered = true;
      if (message.kind === 'telemetry' && confirms) message.brokerAckedAt = now;
      else done.add(message);
    });
    // A confirmation or a full buffer may have removed a message while it was in flight: removal
    // goes by identity.
    if (done.size > 0) this.outbox = this.outbox.filter((message) => !done.has(message));
  }

  /**
   * The head of what is to send: one event or ack, or up to `replayWindow` consecutive readings.
   * Readings waiting for a confirmation are passed over.
   */
  private nextWindow(): Outgoing[] {
    const limit = Math.max(1, this.options.replayWindow ?? REPLAY_WINDOW);
    const window: Outgoing[] = [];
    for (const message of this.outbox) {
      if (window.length >= limit) break;
      if (message.brokerAckedAt !== null) continue;
      if (message.kind !== 'telemetry') {
        if (window.length === 0) window.push(message);
        break;
      }
      window.push(message);
    }
    return window;
  }

  /**
   * Resolves once the broker has acknowledged everything buffered (readings may still wait for the
   * server's confirmation), or the device is offline with messages left.
   */
  async flush(): Promise<void> {
    while (this.connected && this.nextWindow().length > 0) {
      if (await this.drain()) return;
    }
  }
  /**
   * Over-the-air pairing (docs/protocol.md "Pairing"): signs in as `bootstrap.{serial}` with the
   * factory secret, announces itself until the server accepts or refuses, and keeps the
   * credentials it is given. Sequence numbers restart at 1 with the new credentials.
   */
  async pair(): Promise<DeviceCredentials> {
    const factorySecret = this.options.factorySecret;
    if (!factorySecret) throw new Error(`${this.serial}: no factory secret to pair with`);
    const username = bootstrapUsername(this.serial);
    const client = await mqtt.connectAsync(this.options.brokerUrl, {
      clientId: username,
      username,
      password: factorySecret,
      clean: true,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
    });
    try {
      await client.subscribeAsync(deviceTopic(this.serial, 'pairing/response'), { qos: 1 });
      const requestId = uuidFrom(this.random);
      const request = encodePayload({
        v: PROTOCOL_VERSION,
        request_id: requestId,
        serial: this.serial,
        at: this.stamp(),
        model: this.status.model,
        water_temperature: this.status.water_temperature,
        versions: this.status.versions,
      });
      const credentials = await new Promise<DeviceCredentials>((resolve, reject) => {
        const send = () => {
          client.publishAsync(deviceTopic(this.serial, 'pairing/request'), request, { qos: 1 }).catch(reject);
        };
        const retry = setInterval(send, this.options.pairingRetryMs ?? PAIRING_REQUEST_RETRY_S * 1000);
        client.on('message', (_topic, payload) => {
          const answer = parsePairingResponse(payload);
          if (!answer.ok) {
            this.emit('unreadable', answer.reason);
            return;
          }
          if (answer.message.request_id !== requestId) return;
          if (answer.message.result === 'pending') {
            this.emit('pairing', 'pending');
            return;
          }
          clearInterval(retry);
          if (answer.message.result === 'refused') reject(new PairingRefusedError(answer.message.reason));
          else resolve({ username: answer.message.username, password: answer.message.password });
        });
        send();
      });
      this.link.credentials = credentials;
      this.telemetrySeq = 1;
      this.eventSeq = 1;
      this.emit('pairing', 'accepted');
      return credentials;
    } finally {
      await client.endAsync();
    }
  }
}

/** One simulated flowbox: `createDevice(options)`, then `start()` (or `pair()` first). */
export function createDevice(options: DeviceOptions): SimulatedFlowbox {
  return new SimulatedFlowbox(options);
}

/** The first check fails in a failed autotest; the last is skipped when some are. */
function checkResult(result: AutotestResult, index: number): 'succeeded' | 'skipped' | 'failed' {
  if (result === 'failed' && index === 0) return 'failed';
  if (result === 'some_skipped' && index === AUTOTEST_CHECKS.length - 1) return 'skipped';
  return 'succeeded';
}

function listenerTotal(emitter: EventEmitter): number {
  return emitter.eventNames().reduce((sum, name) => sum + emitter.listenerCount(name), 0);
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A version 4 UUID from the seeded generator, so pairing is reproducible for a seed. */
function uuidFrom(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
