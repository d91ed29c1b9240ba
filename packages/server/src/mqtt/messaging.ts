import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  HEARTBEAT_TIMEOUT_S,
  parseTopic,
  TOPIC_PUBLISHER,
  TOPIC_KINDS,
  type TopicKind,
} from '@flowbox/shared';
import type { IClientOptions, MqttClient } from 'mqtt';
import { brokerUrls } from '../config.ts';
import type { Context } from '../context.ts';
import { deviceAuthenticator } from '../flowboxes/index.ts';
import { TelemetryHooks, type TelemetryWriter, type WriterOptions } from '../telemetry/index.ts';
import type { Readiness } from '../health/readiness.ts';
import { startEmbeddedBroker, type BrokerLimits, type EmbeddedBroker, type Logger } from './broker.ts';
import { Confirmations, ConfirmingWriter, confirmingHandler } from './confirmations.ts';
import { DynsecDeviceAccounts } from './device-accounts.ts';
import { IngestConnection } from './ingest-connection.ts';
import type { BrokerCounters, DeviceLink, OutboundCounters } from '../devices/index.ts';
import { DynsecControl } from './dynsec.ts';
import { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import type { FlowboxesService } from '../flowboxes/flowboxes.service.ts';

export type DeviceMessaging = {
  describe: string;
  ingest: FlowboxIngest;
  telemetry: TelemetryWriter;
  confirmations: Confirmations;
  /** The embedded broker's refusals; null with an external broker, which keeps its own. */
  brokerCounters: BrokerCounters | null;
  /** Each ingest connection checks that its last probe came back, and sends the next (the delivery_probe job). */
  probeDelivery: () => void;
  /** The devices' broker accounts with dynamic security (MQTT_DYNSEC_*); undefined without. */
  accounts: DynsecDeviceAccounts | undefined;
  /** Its jobs (jobs/registry.ts) must be stopped first. */
  close: () => Promise<void>;
};

export type MessagingOptions = {
  /** MQTT_URL: an external broker, or several separated by commas (`brokerUrls`); without it the embedded one listens on port/host. */
  mqttUrl: string | undefined;
  port: number;
  host: string;
  ctx: Context;
  link: DeviceLink;
  flowboxes: FlowboxesService;
  commands: CommandsService;
  log: Logger;
  heartbeatTimeoutS?: number;
  /**
   * The shared-subscription group of an external broker. Instances of one deployment share the
   * protocol's `ingest`; tests on a broker used by other runs take their own so nothing crosses.
   */
  shareGroup?: string;
  /** The rules engine's hook on every telemetry batch (services.telemetry). */
  telemetry?: TelemetryHooks;
  /** Batch size, wait and concurrency of the telemetry writer (docs/telemetry.md). */
  writer?: WriterOptions;
  /**
   * External broker: how many connections read the device topics in the shared-subscription group
   * (MQTT_INGEST_CONNECTIONS). Each reads on while its messages' PUBACKs wait for their commits
   * (deferAcks), up to the broker's in-flight window per connection.
   */
  ingestConnections?: number;
  /**
   * External broker: messages each ingest connection lets the broker send it unacknowledged (MQTT 5
   * Receive Maximum; INGEST_RECEIVE_MAXIMUM by default). Tests lower it.
   */
  ingestInFlight?: number;
  /**
   * External broker: a stable client id prefix for this instance (MQTT_CLIENT_ID). Its sessions then
   * survive a crash and a restart (an hour), and the broker redelivers what it had sent unacknowledged.
   * Without it the ids are random and sessions last 30 s, enough for a reconnection only.
   */
  clientId?: string;
  /**
   * External broker: Mosquitto's dynamic-security admin account (MQTT_DYNSEC_USERNAME/PASSWORD).
   * With it the server creates and deletes each device's broker account (docs/protocol.md).
   */
  dynsec?: { username: string; password: string };
  /** The embedded broker's per-connection limits (connections per address, timeouts). */
  brokerLimits?: Partial<BrokerLimits>;
  /** Where the broker's state is reported: 'broker' down while disconnected, unsubscribed or not delivering. */
  readiness?: Readiness;
  /** The period of the end-to-end confirmations to each device (ms). */
  confirmEveryMs?: number;
};

/**
 * What an external broker may send one ingest connection unacknowledged. MQTT 5 leaves it to the
 * client (its Receive Maximum, 65,535 when not said), and Mosquitto's `max_inflight_messages` applies
 * to MQTT 3.1.1 clients only: since every PUBACK waits for its commit, a database slower than the
 * devices had each connection hold 65,535 messages, and a backlog grew in this process's memory (4 GB
 * in a 100,000-device run) instead of at the broker, whose queue is bounded and counted (issue 32).
 * 1,000 covers a commit of half a second at a fleet's 1,700 readings a second.
 */
export const INGEST_RECEIVE_MAXIMUM = 1000;

/** How long the external broker keeps an ingest session (and its unacknowledged messages) after a drop. */
const SESSION_EXPIRY_S = 30;
/** …and with a stable client id (MQTT_CLIENT_ID), long enough for a restart. */
const STABLE_SESSION_EXPIRY_S = 3600;

const DEVICE_KINDS = TOPIC_KINDS.filter((k) => TOPIC_PUBLISHER[k] === 'device');

/**
 * The device kinds ingest connection `index` of `count` reads: with two or more, the first reads
 * every kind but telemetry and the others telemetry alone (shared among them), so that readings
 * never wait behind presence, states, events and acks in one connection's queue at the broker
 * (issue 32: a heartbeat storm made the broker drop the server's messages).
 */
export function connectionKinds(index: number, count: number, kinds: readonly TopicKind[]): TopicKind[] {
  if (count < 2 || !kinds.includes('telemetry')) return [...kinds];
  return index === 0 ? kinds.filter((k) => k !== 'telemetry') : ['telemetry'];
}

/**
 * Device messaging (DESIGN.md §2, §3, §7): the broker (embedded, or external with MQTT_URL), the
 * server's ingest client subscribed to every device topic. Its jobs (the commands' dispatch, the
 * heartbeat check, the delivery probe, the accounts' reconciliation) are in jobs/registry.ts.
 */
export async function startDeviceMessaging(options: MessagingOptions): Promise<DeviceMessaging> {
  const { ctx, log } = options;
  // Hierarchy deletes used to leave their flowboxes' credentials live (refused all the same, since
  // their flowbox is gone): the record is set right once, here.
  const orphans = await options.flowboxes.revokeOrphanCredentials();
  if (orphans > 0) log.info({ count: orphans }, 'revoked device credentials left live by deleted flowboxes');
  // PGlite is one connection: one batch at a time. PostgreSQL overlaps two (one writing while the
  // next is prepared); more only wait on each other's rollup row locks (docs/performance.md).
  const onPglite = (ctx.db as { $client?: unknown }).$client instanceof PGlite;
  const writer = new ConfirmingWriter(ctx, options.telemetry ?? new TelemetryHooks(), log, {
    concurrency: onPglite ? 1 : 2,
    ...options.writer,
  });
  const ingest = new FlowboxIngest(
    ctx,
    options.flowboxes,
    options.commands,
    log,
    options.heartbeatTimeoutS ?? HEARTBEAT_TIMEOUT_S,
    writer,
  );
  let broker: EmbeddedBroker | undefined;
  // The embedded broker hands telemetry to ingest itself; set below, once confirmations exist.
  let brokerHandle = (topic: string, payload: Uint8Array) => ingest.handle(topic, payload);
  let connect: { urls: string[]; options: IClientOptions };
  if (options.mqttUrl) {
    connect = { urls: brokerUrls(options.mqttUrl), options: {} };
  } else {
    broker = await startEmbeddedBroker(
      options.port,
      options.host,
      log,
      deviceAuthenticator(ctx.db),
      (topic, payload) => brokerHandle(topic, payload),
      options.brokerLimits,
    );
    connect = { urls: [broker.internalUrl], options: broker.internalCredentials };
  }
  // Several independent brokers (docs/operations.md "Beyond one Mosquitto"): this instance reads
  // every one, and remembers which broker each device last spoke through, where its confirmations go.
  const several = connect.urls.length > 1;
  const brokerOf = new Map<string, number>();
  const throughBroker =
    (index: number, handle: (topic: string, payload: Uint8Array) => Promise<void>) =>
    (topic: string, payload: Uint8Array) => {
      const serial = parseTopic(topic)?.serial;
      if (serial !== undefined) brokerOf.set(serial, index);
      return handle(topic, payload);
    };
  const outbound: OutboundCounters = { published: 0, failed: 0 };
  // Commands' failures are logged; a lost acknowledgement costs only a replay, and is counted.
  const counted = (topic: string, logFailure: boolean) => (error?: Error) => {
    if (!error) return void (outbound.published += 1);
    outbound.failed += 1;
    if (logFailure) log.warn({ err: error, topic }, 'mqtt publish failed');
  };
  /** The first connection of each broker: what the server publishes goes through it. */
  const publishers: MqttClient[] = [];
  const confirmations = new Confirmations(
    (topic, payload) => {
      const known = several ? brokerOf.get(parseTopic(topic)?.serial ?? '') : 0;
      for (const publisher of known === undefined ? publishers : publishers.slice(known, known + 1))
        publisher.publish(topic, payload, { qos: 0 }, counted(topic, false));
    },
    ctx.now,
    options.confirmEveryMs,
  );
  const handle = confirmingHandler((topic, payload) => ingest.handle(topic, payload), writer, confirmations);
  if (broker) brokerHandle = handle;
  // With the embedded broker, telemetry never reaches this client (the broker hands it to ingest).
  const kinds = options.mqttUrl ? DEVICE_KINDS : DEVICE_KINDS.filter((k) => k !== 'telemetry');
  const connections = options.mqttUrl ? Math.max(1, options.ingestConnections ?? 1) : 1;
  const clients: IngestConnection[] = [];
  const readiness = options.readiness;
  const report = () => {
    const down = clients.map((c, i) => {
      if (!c.problem) return undefined;
      const broker = Math.floor(i / connections);
      const which = `ingest connection ${(i % connections) + 1}`;
      return `${several ? `broker ${broker + 1} ` : ''}${which}: ${c.problem}`;
    });
    readiness?.set(
      'broker',
      down.find((problem) => problem !== undefined),
    );
  };
  readiness?.set('broker', 'connecting');
  try {
    for (const [b, url] of connect.urls.entries())
      for (let i = 0; i < connections; i++) {
        clients.push(
          await IngestConnection.open({
            url,
            connect: {
              ...connect.options,
              clientId: options.clientId
                ? `${options.clientId}-ingest-${i}`
                : `flowbox-server-${randomBytes(6).toString('hex')}`,
              // Aedes speaks MQTT 3.1.1; shared subscriptions on an external broker need MQTT 5.
              protocolVersion: options.mqttUrl ? 5 : 4,
              // External broker: a session that outlives a dropped connection, so what was in flight
              // (never acknowledged) is delivered again when this connection comes back.
              ...(options.mqttUrl
                ? {
                    clean: false,
                    properties: {
                      sessionExpiryInterval: options.clientId ? STABLE_SESSION_EXPIRY_S : SESSION_EXPIRY_S,
                      receiveMaximum: options.ingestInFlight ?? INGEST_RECEIVE_MAXIMUM,
                    },
                  }
                : { clean: true }),
              reconnectPeriod: 2000,
              connectTimeout: 10_000,
            },
            kinds: connectionKinds(i, connections, kinds),
            shareGroup: options.mqttUrl ? (options.shareGroup ?? null) : undefined,
            endSessionOnClose: options.mqttUrl !== undefined && !options.clientId,
            handle: several ? throughBroker(b, handle) : handle,
            onStatus: report,
            log,
          }),
        );
      }
  } catch (error) {
    for (const c of clients) await c.client.endAsync(true);
    await broker?.close();
    throw error;
  }
  report();
  for (let b = 0; b < connect.urls.length; b++) publishers.push(clients[b * connections]!.client);
  const dynsecId = options.clientId
    ? `${options.clientId}-dynsec`
    : `flowbox-dynsec-${randomBytes(6).toString('hex')}`;
  const dynsec =
    options.mqttUrl && options.dynsec
      ? connect.urls.map((url) => DynsecControl.connect(url, options.dynsec!, dynsecId, log))
      : [];
  const accounts = dynsec.length > 0 ? new DynsecDeviceAccounts(dynsec, ctx.db, log) : undefined;
  for (const control of dynsec) control.onReady(() => void accounts!.reconcile());
  options.link.attach(
    {
      // Commands, firmware offers and retained messages go to every broker: a device may be on any.
      publish: (topic, payload, publishOptions) => {
        for (const publisher of publishers)
          publisher.publish(topic, payload, publishOptions, counted(topic, true));
      },
      disconnect: (serial) => broker?.disconnect(serial),
    },
    {
      ingest: ingest.counters,
      outbound,
      telemetry: writer.counters,
      broker: broker?.counters ?? null,
      accounts: accounts?.counters ?? null,
    },
    accounts,
  );

  const where = options.mqttUrl
    ? `MQTT broker${several ? 's' : ''} ${connect.urls.map(redact).join(', ')}`
    : broker!.describe;
  log.info({ broker: where }, 'device messaging started');
  return {
    describe: where,
    ingest,
    telemetry: writer,
    confirmations,
    brokerCounters: broker?.counters ?? null,
    probeDelivery: () => clients.forEach((c) => c.probe()),
    accounts,
    close: async () => {
      options.link.detach();
      for (const control of dynsec) await control.close();
      await writer.flush();
      confirmations.close();
      for (const c of clients) await c.close();
      await broker?.close();
      await writer.close();
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
