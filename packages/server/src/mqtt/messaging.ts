import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  allDevicesFilter,
  HEARTBEAT_TIMEOUT_S,
  sharedIngestFilter,
  TOPIC_PUBLISHER,
  TOPIC_KINDS,
  type TopicKind,
} from '@flowbox/shared';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Context } from '../context.ts';
import { deviceAuthenticator } from '../flowboxes/device-auth.ts';
import { revokeOrphanCredentials } from '../flowboxes/flowboxes.repo.ts';
import { FlowboxIngest } from '../flowboxes/ingest.ts';
import type { CommandsService } from '../flowboxes/commands.service.ts';
import type { FlowboxesService } from '../flowboxes/flowboxes.service.ts';
import { TelemetryHooks } from '../telemetry/hooks.ts';
import { TelemetryWriter, type WriterOptions } from '../telemetry/writer.ts';
import { startEmbeddedBroker, type BrokerCounters, type EmbeddedBroker, type Logger } from './broker.ts';
import { DynsecDeviceAccounts } from './device-accounts.ts';
import type { DeviceLink } from './device-link.ts';
import { DynsecControl } from './dynsec.ts';

export type DeviceMessaging = {
  describe: string;
  ingest: FlowboxIngest;
  telemetry: TelemetryWriter;
  /** The embedded broker's refusals; null with an external broker, which keeps its own. */
  brokerCounters: BrokerCounters | null;
  close: () => Promise<void>;
};

export type MessagingOptions = {
  /** MQTT_URL: an external broker; without it the embedded one listens on port/host. */
  mqttUrl: string | undefined;
  port: number;
  host: string;
  ctx: Context;
  link: DeviceLink;
  flowboxes: FlowboxesService;
  commands: CommandsService;
  log: Logger;
  /** How often the command job and the heartbeat check run (ms); tests shorten them. */
  commandPassMs?: number;
  heartbeatCheckMs?: number;
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
   * External broker: how many connections read the device topics in the shared-subscription group.
   * mqtt.js handles one message at a time per connection and sends its PUBACK only once the
   * message is committed, so each connection has one reading in a batch at a time.
   */
  ingestConnections?: number;
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
  /** How often device accounts are reconciled with the database (ms); also on every connection. */
  accountsReconcileMs?: number;
};

/** Reconciliation mends only what a broker outage left behind: every few minutes is plenty. */
const ACCOUNTS_RECONCILE_MS = 5 * 60_000;

/** How long the external broker keeps an ingest session (and its unacknowledged messages) after a drop. */
const SESSION_EXPIRY_S = 30;
/** …and with a stable client id (MQTT_CLIENT_ID), long enough for a restart. */
const STABLE_SESSION_EXPIRY_S = 3600;

const DEVICE_KINDS = TOPIC_KINDS.filter((k) => TOPIC_PUBLISHER[k] === 'device');

/**
 * Device messaging (DESIGN.md §2, §3, §7): the broker (embedded, or external with MQTT_URL), the
 * server's ingest client subscribed to every device topic, the command job and the heartbeat check.
 */
export async function startDeviceMessaging(options: MessagingOptions): Promise<DeviceMessaging> {
  const { ctx, log } = options;
  // Hierarchy deletes used to leave their flowboxes' credentials live (refused all the same, since
  // their flowbox is gone): the record is set right once, here.
  const orphans = await revokeOrphanCredentials(ctx.db, ctx.now());
  if (orphans > 0) log.info({ count: orphans }, 'revoked device credentials left live by deleted flowboxes');
  // PGlite is one connection: one batch at a time. PostgreSQL overlaps two (one writing while the
  // next is prepared); more only wait on each other's rollup row locks (docs/performance.md).
  const onPglite = (ctx.db as { $client?: unknown }).$client instanceof PGlite;
  const writer = new TelemetryWriter(ctx, options.telemetry ?? new TelemetryHooks(), log, {
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
  let connect: { url: string; options: IClientOptions };
  if (options.mqttUrl) {
    connect = { url: options.mqttUrl, options: {} };
  } else {
    broker = await startEmbeddedBroker(
      options.port,
      options.host,
      log,
      deviceAuthenticator(ctx.db),
      (topic, payload) => ingest.handle(topic, payload),
    );
    connect = { url: broker.internalUrl, options: broker.internalCredentials };
  }
  // With the embedded broker, telemetry never reaches this client (the broker hands it to ingest).
  const kinds = options.mqttUrl ? DEVICE_KINDS : DEVICE_KINDS.filter((k) => k !== 'telemetry');
  const connections = options.mqttUrl ? Math.max(1, options.ingestConnections ?? 1) : 1;
  const clients: MqttClient[] = [];
  try {
    for (let i = 0; i < connections; i++) {
      const client = await mqtt.connectAsync(connect.url, {
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
              },
            }
          : { clean: true }),
        reconnectPeriod: 2000,
        connectTimeout: 10_000,
      });
      clients.push(client);
      // The PUBACK goes only once the message is in the database: a crash in between gets it
      // redelivered. A message that failed is not acknowledged: the connection is dropped, and the
      // broker hands the message (unacknowledged, so still this session's) back on reconnection.
      const defer = deferAcks(client);
      client.handleMessage = (packet, done) => {
        const handled = ingest.handle(packet.topic, packet.payload as Uint8Array);
        const fail = (error: unknown) => {
          log.warn({ err: error }, 'device message not stored; not acknowledged, dropping the connection');
          client.stream.destroy();
        };
        // Telemetry: the next message is read at once, its PUBACK waits for its batch's commit, so
        // one connection feeds a batch with many readings. Other kinds stay one at a time, in order.
        if (
          defer &&
          packet.qos === 1 &&
          packet.messageId !== undefined &&
          packet.topic.endsWith('/telemetry')
        ) {
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
      await subscribeIngest(client, kinds, options.mqttUrl ? (options.shareGroup ?? null) : undefined, log);
    }
  } catch (error) {
    for (const client of clients) await client.endAsync(true);
    await broker?.close();
    throw error;
  }
  const client = clients[0]!;
  const dynsec =
    options.mqttUrl && options.dynsec
      ? DynsecControl.connect(
          options.mqttUrl,
          options.dynsec,
          options.clientId
            ? `${options.clientId}-dynsec`
            : `flowbox-dynsec-${randomBytes(6).toString('hex')}`,
          log,
        )
      : undefined;
  const accounts = dynsec ? new DynsecDeviceAccounts(dynsec, ctx.db, log) : undefined;
  dynsec?.onReady(() => void accounts!.reconcile());
  options.link.attach(
    {
      publish: (topic, payload, publishOptions) =>
        client.publish(topic, payload, publishOptions, (error) => {
          if (error) log.warn({ err: error, topic }, 'mqtt publish failed');
        }),
      disconnect: (serial) => broker?.disconnect(serial),
    },
    {
      ingest: ingest.counters,
      telemetry: writer.counters,
      broker: broker?.counters ?? null,
      accounts: accounts?.counters ?? null,
    },
    accounts,
  );

  const timers = [
    every(options.commandPassMs ?? 1000, () => options.commands.dispatchDue(), log, 'command job'),
    every(options.heartbeatCheckMs ?? 15_000, () => ingest.detectSilentDevices(), log, 'heartbeat check'),
    ...(accounts
      ? [
          every(
            options.accountsReconcileMs ?? ACCOUNTS_RECONCILE_MS,
            () => accounts.reconcile(),
            log,
            'accounts',
          ),
        ]
      : []),
  ];
  const where = options.mqttUrl ? `MQTT broker ${redact(options.mqttUrl)}` : broker!.describe;
  log.info({ broker: where }, 'device messaging started');
  return {
    describe: where,
    ingest,
    telemetry: writer,
    brokerCounters: broker?.counters ?? null,
    close: async () => {
      for (const stop of timers) await stop();
      options.link.detach();
      await dynsec?.close();
      for (const c of clients) await c.endAsync();
      await broker?.close();
      await writer.close();
    },
  };
}

/**
 * Several instances split ingest through MQTT 5 shared subscriptions (DESIGN.md §7) on an external
 * broker; a broker that refuses them gets plain ones (every instance then sees every message, which
 * the idempotent ingest absorbs). The embedded broker serves one instance: plain subscriptions.
 */
async function subscribeIngest(
  client: MqttClient,
  kinds: readonly TopicKind[],
  shareGroup: string | null | undefined,
  log: Logger,
): Promise<void> {
  const plain = kinds.map((kind: TopicKind) => allDevicesFilter(kind));
  if (shareGroup !== undefined) {
    const shared = kinds.map((kind: TopicKind) =>
      shareGroup === null ? sharedIngestFilter(kind) : `$share/${shareGroup}/${allDevicesFilter(kind)}`,
    );
    const granted = await client.subscribeAsync(shared, { qos: 1 });
    if (granted.every((g) => g.qos === 1)) return;
    log.warn({}, 'the MQTT broker refused shared subscriptions: every instance reads every message');
  }
  await client.subscribeAsync(plain, { qos: 1 });
}

type PacketSender = (
  packet: { cmd: string; messageId?: number },
  cb?: (error?: Error) => void,
  ...rest: unknown[]
) => void;

/**
 * Lets a PUBACK wait for a promise while mqtt.js goes on reading the connection (docs/telemetry.md
 * "External broker"). mqtt.js sends the PUBACK of a QoS 1 message from the `handleMessage`
 * callback and reads the next packet only after it, so acknowledging after commit would hold one
 * message per connection. This wraps its (private) `_sendPacket`: a PUBACK whose message id was
 * deferred is written once that message's promise resolves, and never if it rejects (the connection
 * is then dropped and the broker redelivers). Answers null when mqtt.js has no such method (another
 * version): ingest then keeps one message at a time, correct but slower.
 */
function deferAcks(client: MqttClient): ((messageId: number, committed: Promise<unknown>) => void) | null {
  const target = client as unknown as { _sendPacket?: PacketSender };
  const send = target._sendPacket?.bind(client);
  if (!send) return null;
  const pending = new Map<number, Promise<unknown>>();
  target._sendPacket = (packet, cb, ...rest) => {
    const committed =
      packet.cmd === 'puback' && packet.messageId !== undefined ? pending.get(packet.messageId) : undefined;
    if (!committed) return send(packet, cb, ...rest);
    pending.delete(packet.messageId!);
    cb?.();
    committed.then(
      () => send(packet, undefined, ...rest),
      () => undefined,
    );
  };
  return (messageId, committed) => {
    committed.catch(() => undefined);
    pending.set(messageId, committed);
  };
}

/** Runs a job every `ms`, skipping a beat while a pass still runs; returns how to stop it. */
function every(ms: number, job: () => Promise<unknown>, log: Logger, name: string): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= job()
      .catch((error: unknown) => log.error({ err: error }, `${name} failed`))
      .finally(() => (running = undefined));
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
