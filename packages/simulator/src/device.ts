import { EventEmitter } from 'node:events';
import mqtt, { type MqttClient } from 'mqtt';
import {
  bootstrapUsername,
  deviceTopic,
  encodePayload,
  MAX_TELEMETRY_INTERVAL_S,
  MQTT_KEEPALIVE_S,
  OFFLINE_BUFFER_MAX_MESSAGES,
  PAIRING_REQUEST_RETRY_S,
  parseCommand,
  parsePairingResponse,
  PROTOCOL_VERSION,
  TELEMETRY_INTERVAL_S,
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
  type TopicKind,
  type ValveState,
  type WaterTemperature,
} from '@flowbox/shared';
import { systemClock, type Clock } from './clock.ts';
import {
  ambientReading,
  ConsumptionModel,
  localTimeReader,
  type FaultSpec,
  type ZoneSpec,
} from './consumption.ts';
import { deriveSeed, seededRandom, type Random } from './random.ts';

export type DeviceCredentials = { username: string; password: string };

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
  /** The device's clock runs this far ahead (negative: behind) of true time. */
  clockSkewMs?: number;
  seed?: number;
  intervalS?: number;
  faults?: readonly FaultSpec[];
  /** What the next autotests find; all checks succeed by default. */
  autotestResult?: AutotestResult;
  /** Real milliseconds a reboot keeps the device away. */
  rebootDelayMs?: number;
  /** Real milliseconds between automatic reconnection attempts after a network loss. */
  reconnectPeriodMs?: number;
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

export class CredentialsRefusedError extends Error {
  constructor(readonly serial: string) {
    super(`${serial}: the broker refused the device's credentials`);
  }
}

export class PairingRefusedError extends Error {
  constructor(readonly reason: PairingRefusalReason) {
    super(`pairing refused: ${reason}`);
  }
}

type Outgoing = { kind: TopicKind; topic: string; payload: string };

type Connection = { client: MqttClient; closed: Promise<void> };

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
const REMEMBERED_COMMANDS = 1000;

/** Broker refusals that mean "these credentials are no good": v3.1.1 codes 4, 5; v5 0x86, 0x87. */
const CREDENTIALS_REFUSED = new Set([4, 5, 0x86, 0x87]);

/**
 * One simulated flowbox speaking the real protocol (docs/protocol.md) through `@flowbox/shared`
 * only: telemetry, retained state and presence with a last will, events, command acks, an offline
 * buffer replayed in order, pairing, clock skew and faults.
 */
export class SimulatedFlowbox extends EventEmitter<DeviceNotices> {
  readonly serial: string;
  private readonly options: DeviceOptions;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly consumption: ConsumptionModel;
  private readonly localHour: (ms: number) => number;
  private readonly intervalMs: number;
  private credentials: DeviceCredentials | undefined;
  private connection: Connection | null = null;
  private outbox: Outgoing[] = [];
  private draining: Promise<void> | null = null;
  private readonly seen = new Map<string, Ack>();
  private pendingRebootAck: string | null = null;
  private pendingRebootEvent = false;
  private rebootReason: RebootReason = 'command';
  private telemetrySeq: number;
  private eventSeq: number;
  private lastWindowEnd: number;
  private lastAdvance: number;
  private partial = { volumeL: 0, flowS: 0 };
  private status: Omit<DeviceState, 'v' | 'at' | 'temperature_c' | 'humidity_pct'>;
  /** Messages the broker acknowledged, for rate reports. */
  published = 0;

  constructor(options: DeviceOptions) {
    super();
    this.options = options;
    this.serial = options.serial;
    this.credentials = options.credentials;
    this.clock = options.clock ?? systemClock;
    this.random = seededRandom(deriveSeed(options.seed ?? 1, options.serial));
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
    return this.connection?.client.connected === true;
  }

  get valve(): ValveState {
    return this.status.valve;
  }

  get currentCredentials(): DeviceCredentials | undefined {
    return this.credentials;
  }

  /** Messages waiting for the broker (the offline buffer). */
  get buffered(): number {
    return this.outbox.length;
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

  /** Connects (with its last will) and keeps reconnecting after network losses until stopped. */
  async start(): Promise<void> {
    await this.connect();
  }

  /** A clean stop: says `offline` / `shutdown`, then disconnects without firing the will. */
  async stop(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (!connection) return;
    if (connection.client.connected) await this.publishPresence(connection.client, 'offline', 'shutdown');
    await connection.client.endAsync();
  }

  /**
   * The network goes away: the connection drops without a word, so the broker publishes the last
   * will. The device keeps measuring and buffers until `goOnline()`.
   */
  async goOffline(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (connection) await connection.client.endAsync(true);
  }

  async goOnline(): Promise<void> {
    await this.start();
  }

  private async connect(): Promise<void> {
    const username = this.credentials?.username;
    const client = mqtt.connect(this.options.brokerUrl, {
      clientId: username ?? this.serial,
      username,
      password: this.credentials?.password,
      clean: this.options.cleanSession ?? false,
      keepalive: MQTT_KEEPALIVE_S,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: 10_000,
      will: {
        topic: deviceTopic(this.serial, 'presence'),
        payload: Buffer.from(
          encodePayload({
            v: PROTOCOL_VERSION,
            at: this.stamp(),
            status: 'offline',
            reason: 'connection_lost',
          } satisfies Presence),
        ),
        qos: 1,
        retain: true,
      },
    });
    let markClosed = () => {};
    const connection: Connection = { client, closed: new Promise((resolve) => (markClosed = resolve)) };
    this.connection = connection;
    client.on('connect', () => {
      connection.closed = new Promise((resolve) => (markClosed = resolve));
      this.onConnected(client).catch((error: Error) => this.emit('problem', error));
    });
    client.on('close', () => {
      markClosed();
      this.emit('disconnected');
    });
    client.on('message', (topic, payload) => {
      if (topic === deviceTopic(this.serial, 'commands')) this.receiveCommand(payload);
    });
    client.on('error', (error) => {
      if ('code' in error && typeof error.code === 'number' && CREDENTIALS_REFUSED.has(error.code))
        this.forgetCredentials(client);
      else this.emit('problem', error);
    });
    // The first connection settles start(): connected, or refused credentials (the device is then
    // revoked); other errors are ridden out by reconnecting.
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        client.off('connect', settle);
        this.off('revoked', refuse);
        resolve();
      };
      const refuse = () => {
        client.off('connect', settle);
        this.off('revoked', refuse);
        reject(new CredentialsRefusedError(this.serial));
      };
      client.once('connect', settle);
      this.once('revoked', refuse);
    });
  }

  /**
   * Refused credentials mean the device was unpaired (docs/protocol.md "Unpairing"): it forgets
   * them and stops, back to its factory identity.
   */
  private forgetCredentials(client: MqttClient): void {
    this.credentials = undefined;
    if (this.connection?.client === client) this.connection = null;
    client.end(true);
    this.emit('revoked');
  }

  private async onConnected(client: MqttClient): Promise<void> {
    await client.subscribeAsync(deviceTopic(this.serial, 'commands'), { qos: 1 });
    await this.publishPresence(client, 'online');
    await this.publishState();
    this.emit('connected');
    if (this.pendingRebootAck) this.completeReboot();
    void this.drain();
  }

  /** The heartbeat: `online` again, retained (docs/protocol.md "Presence and heartbeat"). */
  async heartbeat(): Promise<void> {
    const client = this.connection?.client;
    if (client?.connected) await this.publishPresence(client, 'online');
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
    await client.publishAsync(deviceTopic(this.serial, 'presence'), encodePayload(presence), {
      qos: 1,
      retain: true,
    });
  }

  /** State is never buffered: only the latest matters, and it is sent again on every connection. */
  private async publishState(): Promise<void> {
    const client = this.connection?.client;
    if (!client?.connected) return;
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
        this.pendingRebootAck = command.id;
        this.reboot('command').catch((error: Error) => this.emit('problem', error));
        return;
    }
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
   * delay, then the `reboot` event with its reason (and the command's final ack).
   */
  async reboot(reason: RebootReason): Promise<void> {
    this.rebootReason = reason;
    await this.flush();
    const connection = this.connection;
    this.connection = null;
    if (connection) {
      if (connection.client.connected) await this.publishPresence(connection.client, 'offline', 'reboot');
      await connection.client.endAsync();
    }
    await new Promise((resolve) => setTimeout(resolve, this.options.rebootDelayMs ?? 1000));
    this.pendingRebootEvent = true;
    await this.start();
  }

  private completeReboot(): void {
    if (!this.pendingRebootEvent) return;
    this.pendingRebootEvent = false;
    this.emitEvent({ type: 'reboot', reason: this.rebootReason });
    if (this.pendingRebootAck) {
      this.finish(this.pendingRebootAck, 'done');
      this.pendingRebootAck = null;
    }
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

  /** Everything that must reach the server goes through one FIFO buffer, replayed in order. */
  private enqueue(kind: 'telemetry' | 'events' | 'acks', message: object): void {
    this.outbox.push({ kind, topic: deviceTopic(this.serial, kind), payload: encodePayload(message) });
    const limit = this.options.bufferLimit ?? OFFLINE_BUFFER_MAX_MESSAGES;
    if (this.outbox.length > limit) {
      // Full: the oldest reading goes first; events and acks are never dropped.
      const oldestTelemetry = this.outbox.findIndex((m) => m.kind === 'telemetry');
      this.outbox.splice(oldestTelemetry === -1 ? 0 : oldestTelemetry, 1);
    }
    // After the current task: the readings of one tick leave together, in one window.
    if (this.connected) queueMicrotask(() => void this.drain());
  }

  /**
   * Sends the buffer in order, removing each message only once the broker has acknowledged it: a
   * connection lost mid-way leaves the rest (and the unacknowledged ones, sent again with the same
   * sequence number) for the next connection. Consecutive readings go out as a window of up to
   * `replayWindow` in flight, so a replayed buffer reaches the server's batch writer many at a time
   * instead of one round trip (and one transaction) per reading; events and acks go one at a time,
   * each after everything before it, so the server sees them in order with the readings.
   */
  private drain(): Promise<void> {
    this.draining ??= this.sendBuffered().finally(() => {
      this.draining = null;
      // A message queued between the last send and this moment must not wait for the next one.
      if (this.outbox.length > 0 && this.connected) void this.drain();
    });
    return this.draining;
  }

  private async sendBuffered(): Promise<void> {
    while (this.outbox.length > 0 && this.connection?.client.connected) {
      const { client, closed } = this.connection;
      const window = this.nextWindow();
      if (window.length === 0) break;
      // One write for the whole window: the broker reads it as one chunk, the server as one batch.
      client.stream.cork();
      const publishing = window.map((message) =>
        Promise.race([
          client.publishAsync(message.topic, message.payload, { qos: 1 }).then(
            () => true,
            () => false,
          ),
          closed.then(() => false),
        ]),
      );
      process.nextTick(() => client.stream.uncork());
      const sent = await Promise.all(publishing);
      // Counted once per message: a QoS 1 resend after a reconnect acknowledges the same one again.
      // A full buffer may have dropped a reading while it was in flight: removal goes by identity.
      const acknowledged = new Set(window.filter((_, i) => sent[i]));
      const before = this.outbox.length;
      this.outbox = this.outbox.filter((message) => !acknowledged.has(message));
      this.published += before - this.outbox.length;
      if (sent.includes(false)) break;
    }
  }

  /** The head of the buffer: one event or ack, or up to `replayWindow` consecutive readings. */
  private nextWindow(): Outgoing[] {
    const limit = Math.max(1, this.options.replayWindow ?? REPLAY_WINDOW);
    const window: Outgoing[] = [];
    for (const message of this.outbox) {
      if (window.length >= limit) break;
      if (message.kind !== 'telemetry') {
        if (window.length === 0) window.push(message);
        break;
      }
      window.push(message);
    }
    return window;
  }

  /** Resolves once the buffer is empty, or the device is offline with messages left. */
  async flush(): Promise<void> {
    while (this.outbox.length > 0 && this.connected) await this.drain();
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
      this.credentials = credentials;
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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A version 4 UUID from the seeded generator, so pairing is reproducible for a seed. */
function uuidFrom(random: Random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
