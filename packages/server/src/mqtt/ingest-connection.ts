import { randomBytes } from 'node:crypto';
import { allDevicesFilter, serverProbeTopic, sharedIngestFilter, type TopicKind } from '@flowbox/shared';
import mqtt, {
  type IClientOptions,
  type IClientSubscribeOptions,
  type ISubscriptionMap,
  type MqttClient,
} from 'mqtt';
import type { Logger } from './broker.ts';
import { deferAcks } from './deferred-acks.ts';

export type IngestConnectionOptions = {
  url: string;
  /** Credentials, session settings and client id of this connection. */
  connect: IClientOptions;
  /** The device kinds this connection reads. */
  kinds: readonly TopicKind[];
  /**
   * External broker: the shared-subscription group (null: the protocol's `ingest`); undefined for
   * the embedded broker, which serves one instance with plain subscriptions.
   */
  shareGroup: string | null | undefined;
  /** Stores one device message; resolves once it is dealt with, rejects when it was not stored. */
  handle: (topic: string, payload: Uint8Array) => Promise<void>;
  /** Called whenever `problem` changes. */
  onStatus: () => void;
  log: Logger;
  /**
   * External broker, no stable client id: a close ends the session at once (MQTT 5 DISCONNECT with
   * a session expiry of 0), since no instance will ever resume it; kept, it would go on taking its
   * share of the devices' messages until it expired.
   */
  endSessionOnClose?: boolean;
};

/**
 * One connection of the server's ingest to the broker, and what it knows of its own health
 * (docs/reliability.md "Broker restarts and the end-to-end confirmation"):
 *
 * - It subscribes on EVERY connection, not only the first: a broker that answers "session present"
 *   may still have lost subscriptions (Mosquitto 2.0 restores a persistent session without its
 *   `$share/…` ones), and mqtt.js, left to itself, resubscribes only when the session is new and
 *   skips any topic it believes subscribed unless asked with `resubscribe: true`.
 * - `probe()` publishes to this connection's own probe topic, subscribed in the same SUBSCRIBE as the
 *   device topics (shared the same way, in a group of its own so it comes back to this connection);
 *   a probe not back by the next one means the broker is not delivering: subscribe again.
 * - `problem` is undefined while connected, subscribed and delivering, else why not.
 */
export class IngestConnection {
  problem: string | undefined = 'connecting';
  private readonly probeTopic: string;
  private shared: boolean;
  private probeNonce: string | undefined;
  private probeBack = true;
  private subscribing: Promise<void> | undefined;

  private constructor(
    readonly client: MqttClient,
    private readonly options: IngestConnectionOptions,
  ) {
    this.probeTopic = serverProbeTopic(randomBytes(6).toString('hex'));
    this.shared = options.shareGroup !== undefined;
  }

  /** Connects and subscribes; rejects when the first connection or subscription fails. */
  static async open(options: IngestConnectionOptions): Promise<IngestConnection> {
    const client = await mqtt.connectAsync(options.url, {
      ...options.connect,
      // This connection subscribes by itself on every connection (below): mqtt.js's own
      // resubscription would only send a second SUBSCRIBE when the session is new.
      resubscribe: false,
    });
    const connection = new IngestConnection(client, options);
    connection.readMessages();
    try {
      await connection.subscribe();
    } catch (error) {
      await client.endAsync(true);
      throw error;
    }
    client.on('connect', () => {
      // A SUBSCRIBE of the connection before is gone with it.
      connection.subscribing = undefined;
      void connection.subscribe().catch(() => undefined);
    });
    client.on('close', () => connection.report('disconnected'));
    return connection;
  }

  /** Checks that the previous probe came back, then sends the next. */
  probe(): void {
    if (!this.client.connected || this.subscribing) return;
    if (!this.probeBack) {
      this.report('not delivering (the delivery probe did not come back)');
      void this.subscribe().catch(() => undefined);
      return;
    }
    const nonce = randomBytes(8).toString('hex');
    this.probeNonce = nonce;
    this.probeBack = false;
    this.client.publish(this.probeTopic, nonce, { qos: 1 }, (error) => {
      // A broker that refuses the publish (an ACL without the probe topic) says so in its PUBACK.
      if (error && this.probeNonce === nonce)
        this.report(`not delivering (the broker refused the delivery probe: ${error.message})`);
    });
  }

  close(): Promise<void> {
    if (this.options.endSessionOnClose)
      return this.client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    return this.client.endAsync();
  }

  private report(problem: string | undefined): void {
    if (problem === this.problem) return;
    // Connecting and subscribing are steps, not problems worth a warning (readiness still says them).
    if (problem !== undefined && problem !== 'connecting' && problem !== 'subscribing')
      this.options.log.warn({ problem }, 'device messages do not reach this server');
    else if (this.problem !== 'connecting')
      this.options.log.info({}, 'device messages reach this server again');
    this.problem = problem;
    this.options.onStatus();
  }

  /** Subscribes to every device topic and the probe, whatever the broker remembers. */
  private subscribe(): Promise<void> {
    this.subscribing ??= this.subscribeOnce().finally(() => (this.subscribing = undefined));
    return this.subscribing;
  }

  private async subscribeOnce(): Promise<void> {
    // A connection found not delivering stays so until a probe comes back: subscribing again is
    // the remedy tried, not the proof that it worked.
    const notDelivering = this.problem?.startsWith('not delivering') ?? false;
    if (!notDelivering) this.report('subscribing');
    if (this.shared) {
      const granted = await this.client.subscribeAsync(this.filters(true));
      if (granted.every((g) => g.qos === 1)) return this.subscribed(notDelivering);
      this.shared = false;
      this.options.log.warn(
        {},
        'the MQTT broker refused shared subscriptions: every instance reads every message',
      );
    }
    const granted = await this.client.subscribeAsync(this.filters(false));
    if (granted.every((g) => g.qos === 1)) return this.subscribed(notDelivering);
    this.report(`not subscribed (the broker refused: ${granted.map((g) => g.qos).join(', ')})`);
  }

  /** Subscribed: ready, unless it was found not delivering (then the next probe tells). */
  private subscribed(notDelivering: boolean): void {
    this.probeBack = true;
    this.probeNonce = undefined;
    if (!notDelivering) this.report(undefined);
  }

  /**
   * The SUBSCRIBE: device topics and probe topic. `resubscribe: true` makes mqtt.js send every
   * filter even when it believes it subscribed already. Retained messages (state, presence) are sent
   * again only for a subscription the broker did not have (`rh: 1`): a resubscription on a broker
   * that kept them does not replay every device's state.
   */
  private filters(shared: boolean): ISubscriptionMap {
    const group = this.options.shareGroup ?? 'ingest';
    const filters: Record<string, IClientSubscribeOptions> = {};
    for (const kind of this.options.kinds)
      filters[shared ? this.sharedFilter(kind) : allDevicesFilter(kind)] = { qos: 1, rh: 1 };
    // The probe in a shared group of its own: lost with the shared ones, and back to this connection.
    const probe = shared
      ? `$share/${group}-${this.probeTopic.split('/').pop()}/${this.probeTopic}`
      : this.probeTopic;
    filters[probe] = { qos: 1, rh: 1 };
    return Object.assign(filters, { resubscribe: true });
  }

  private sharedFilter(kind: TopicKind): string {
    const group = this.options.shareGroup;
    return group === null || group === undefined
      ? sharedIngestFilter(kind)
      : `$share/${group}/${allDevicesFilter(kind)}`;
  }

  /**
   * The PUBACK goes only once the message is in the database: a crash in between gets it
   * redelivered. A message that failed is not acknowledged: the connection is dropped, and the
   * broker hands the message (unacknowledged, so still this session's) back on reconnection.
   */
  private readMessages(): void {
    const { client, options } = this;
    const defer = deferAcks(client);
    client.handleMessage = (packet, done) => {
      if (packet.topic === this.probeTopic) {
        if (String(packet.payload) === this.probeNonce) {
          this.probeBack = true;
          if (this.problem?.startsWith('not delivering')) this.report(undefined);
        }
        return done();
      }
      const handled = options.handle(packet.topic, packet.payload as Uint8Array);
      const fail = (error: unknown) => {
        options.log.warn(
          { err: error },
          'device message not stored; not acknowledged, dropping the connection',
        );
        client.stream.destroy();
      };
      // The next message is read at once, this one's PUBACK waits for its commit: one connection
      // feeds a telemetry batch with many readings and a presence batch with a connection storm's
      // devices, and no kind waits behind another (issue 32). A device's messages other than
      // readings are still applied one at a time, in the order read (FlowboxIngest.handle).
      if (defer && packet.qos === 1 && packet.messageId !== undefined) {
        defer(
          packet.messageId,
          handled.catch((error: unknown) => (fail(error), Promise.reject(error))),
        );
        return done();
      }
      handled.then(
        () => done(),
        (error: unknown) => {
          done(error instanceof Error ? error : new Error(String(error)));
          fail(error);
        },
      );
    };
  }
}
