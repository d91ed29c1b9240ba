import mqtt, { type MqttClient } from 'mqtt';
import { deviceTopic, MQTT_KEEPALIVE_S, reconnectDelayMs } from '@flowbox/shared';
import type { Random } from './random.ts';

/*
 * A device's connection life cycle (docs/protocol.md "Reconnecting"): connecting with its last will,
 * reconnecting with a jittered back-off after a loss, giving up its credentials when the broker
 * refuses them, and waits that end when the connection closes. What the device says and does on a
 * connection is device.ts's (SimulatedFlowbox), told through ConnectionHooks.
 */

export type DeviceCredentials = { username: string; password: string };

export class CredentialsRefusedError extends Error {
  constructor(readonly serial: string) {
    super(`${serial}: the broker refused the device's credentials`);
  }
}

/**
 * One MQTT connection. A client serves one connection only: when it closes, the client is ended
 * and dropped, and the next attempt is a new client. So nothing the old one held (mqtt.js keeps
 * unacknowledged publishes to send again on its own reconnection) outlives it: the device's buffer
 * is the only copy of what is still to send.
 */
export type Connection = {
  client: MqttClient;
  /** CONNACK received, and not closed since. */
  open: boolean;
  /** The broker granted the `confirm` subscription: readings wait for the server's confirmation. */
  confirms: boolean;
  /** Callbacks of the waits on this connection (`whileOpen`), called once when it closes. */
  closeWaiters: Set<() => void>;
};

/** A wait cut short by the connection closing. */
export const CLOSED = Symbol('connection closed');

/** A CONNECT the broker has not answered in this time is given up (and tried again). */
const CONNECT_TIMEOUT_MS = 10_000;

/** The SUBACK code of a refused subscription (MQTT 3.1.1 §3.9.3: 0x80, "Failure"). */
const SUBSCRIPTION_REFUSED = 0x80;

/** Broker refusals that mean "these credentials are no good": v3.1.1 codes 4, 5; v5 0x86, 0x87. */
const CREDENTIALS_REFUSED = new Set([4, 5, 0x86, 0x87]);

/** Where and how a device connects (DeviceOptions' connection part). */
export type ConnectionOptions = {
  brokerUrl: string;
  cleanSession?: boolean;
  reconnectPeriodMs?: number;
  reconnectMaxMs?: number;
};

/** What the connection asks of the device and tells it. */
export type ConnectionHooks = {
  /** The last will's payload (`offline`, `connection_lost`), stamped as each attempt starts. */
  will(): string;
  /** A connection is open (CONNACK): the device subscribes, announces itself and sends its buffer. */
  opened(connection: Connection): Promise<void>;
  /** A connection is over; `wasOpen` when it had been open. */
  closed(wasOpen: boolean): void;
  message(topic: string, payload: Buffer): void;
  /** A broker or network trouble the device rides out. */
  problem(error: Error): void;
  /** The broker refused the credentials: the device was unpaired. */
  revoked(): void;
};

/** One device's connection to the broker, one client at a time (see `Connection`). */
export class DeviceConnection {
  /** The device's own credentials; none before pairing, or once the broker refused them. */
  credentials: DeviceCredentials | undefined;
  /** The device wants to be online: set by `start()`, cleared by `leave()` and a revocation. */
  private wanted = false;
  private current: Connection | null = null;
  /** MQTT clients created and not yet closed (the footprint's `clients`). */
  private liveClients = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Reconnections attempted since the last connection (the back-off doubles with each). */
  private reconnectAttempts = 0;
  /** The one wait of `start()` callers for a connection, however many call it. */
  private starting: { promise: Promise<void>; settle: (error?: Error) => void } | null = null;

  constructor(
    private readonly serial: string,
    private readonly options: ConnectionOptions,
    credentials: DeviceCredentials | undefined,
    /** The back-off's own randomness (the consumption model's stays as it was for a seed). */
    private readonly jitter: Random,
    private readonly hooks: ConnectionHooks,
  ) {
    this.credentials = credentials;
  }

  get connected(): boolean {
    return this.current?.open === true;
  }

  /** The connection being made or open; null while offline or waiting to reconnect. */
  get connection(): Connection | null {
    return this.current;
  }

  /** The device wants to be online (it reconnects after a loss). */
  get wantsOnline(): boolean {
    return this.wanted;
  }

  /** MQTT clients created and not yet closed: at most one. */
  get clients(): number {
    return this.liveClients;
  }

  /** A reconnection is scheduled (0 or 1). */
  get reconnectTimers(): number {
    return this.reconnectTimer ? 1 : 0;
  }

  /**
   * Connects (with its last will) and keeps reconnecting after network losses until stopped.
   * Resolves once connected (or once stopped); rejects with `CredentialsRefusedError` when the
   * broker refuses the credentials. Calling it again while connecting waits for the same connection.
   */
  async start(): Promise<void> {
    this.wanted = true;
    if (!this.current && !this.reconnectTimer) this.openConnection();
    await this.untilConnected();
  }

  /** The device stops wanting a connection: no reconnection, `start()` callers released. */
  leave(): Connection | null {
    this.wanted = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const connection = this.current;
    this.current = null;
    this.settleStart();
    return connection;
  }

  /**
   * The connection is handed over to be closed on purpose (a reboot) while the device still wants to
   * be online: its closing schedules no reconnection; `start()` connects again.
   */
  detach(): Connection | null {
    const connection = this.current;
    this.current = null;
    return connection;
  }

  private untilConnected(): Promise<void> {
    if (this.connected) return Promise.resolve();
    if (!this.starting) {
      let settle: (error?: Error) => void = () => {};
      const promise = new Promise<void>((resolve, reject) => {
        settle = (error) => (error ? reject(error) : resolve());
      });
      this.starting = { promise, settle };
    }
    return this.starting.promise;
  }

  private settleStart(error?: Error): void {
    const starting = this.starting;
    this.starting = null;
    starting?.settle(error);
  }

  /** One connection attempt, with a new client (see `Connection`). */
  private openConnection(): void {
    const username = this.credentials?.username;
    const client = mqtt.connect(this.options.brokerUrl, {
      clientId: username ?? this.serial,
      username,
      password: this.credentials?.password,
      clean: this.options.cleanSession ?? false,
      keepalive: MQTT_KEEPALIVE_S,
      // The device reconnects itself, with a new client (see `Connection`).
      reconnectPeriod: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      will: {
        topic: deviceTopic(this.serial, 'presence'),
        payload: Buffer.from(this.hooks.will()),
        qos: 1,
        retain: true,
      },
    });
    const connection: Connection = { client, open: false, confirms: false, closeWaiters: new Set() };
    this.current = connection;
    this.liveClients += 1;
    client.on('connect', () => {
      connection.open = true;
      this.reconnectAttempts = 0;
      this.settleStart();
      this.hooks.opened(connection).catch((error: Error) => {
        if (connection.open) this.hooks.problem(error);
      });
    });
    client.once('close', () => this.onClosed(connection));
    client.on('message', (topic, payload) => this.hooks.message(topic, payload));
    client.on('error', (error) => {
      if ('code' in error && typeof error.code === 'number' && CREDENTIALS_REFUSED.has(error.code))
        this.forgetCredentials(client);
      else this.hooks.problem(error);
    });
  }

  /**
   * A connection is over (lost, refused, timed out, or ended on purpose): its client is ended for
   * good, every wait on it is released, one reconnection is scheduled if the device still wants to
   * be online, and the device is told (the readings still waiting for a confirmation are to be sent
   * again on the next connection).
   */
  private onClosed(connection: Connection): void {
    const wasOpen = connection.open;
    connection.open = false;
    this.liveClients -= 1;
    connection.client.end(true);
    for (const release of connection.closeWaiters) release();
    connection.closeWaiters.clear();
    if (this.current === connection) {
      this.current = null;
      this.scheduleReconnect();
    }
    this.hooks.closed(wasOpen);
  }

  /** The next attempt, after a jittered back-off that doubles with each failure in a row (docs/protocol.md). */
  private scheduleReconnect(): void {
    if (!this.wanted || this.current || this.reconnectTimer) return;
    const delay = reconnectDelayMs(
      this.reconnectAttempts,
      this.jitter(),
      this.options.reconnectPeriodMs,
      this.options.reconnectMaxMs,
    );
    this.reconnectAttempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.wanted && !this.current) this.openConnection();
    }, delay);
  }

  /**
   * Waits for `work` while the connection stays open: `CLOSED` as soon as it closes, so that a
   * connection lost mid-way never leaves the device waiting on a client that is gone. The wait is
   * removed once settled, so a long connection does not collect one per message.
   */
  whileOpen<T>(connection: Connection, work: Promise<T>): Promise<T | typeof CLOSED> {
    if (!connection.open) {
      work.catch(() => undefined);
      return Promise.resolve(CLOSED);
    }
    let release: () => void = () => {};
    const closed = new Promise<typeof CLOSED>((resolve) => {
      release = () => resolve(CLOSED);
      connection.closeWaiters.add(release);
    });
    return Promise.race([work, closed]).finally(() => connection.closeWaiters.delete(release));
  }

  /**
   * Refused credentials mean the device was unpaired (docs/protocol.md "Unpairing"): it forgets
   * them and stops, back to its factory identity.
   */
  private forgetCredentials(client: MqttClient): void {
    this.credentials = undefined;
    const current = this.current?.client === client;
    this.wanted = false;
    if (current) this.current = null;
    client.end(true);
    this.settleStart(new CredentialsRefusedError(this.serial));
    this.hooks.revoked();
  }
}

/** Subscribes; false when the broker refuses (a SUBACK code with the failure bit 0x80 set). */
export async function subscribe(client: MqttClient, topic: string, qos: 0 | 1): Promise<boolean> {
  try {
    await client.subscribeAsync(topic, { qos });
    return true;
  } catch (error) {
    // mqtt.js rejects a refused subscription with the SUBACK packet attached.
    const granted = (error as { packet?: { granted?: unknown } }).packet?.granted;
    const refused =
      Array.isArray(granted) &&
      granted.some((code) => typeof code === 'number' && (code & SUBSCRIPTION_REFUSED) !== 0);
    if (refused) return false;
    throw error;
  }
}
