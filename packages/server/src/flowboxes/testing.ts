import { randomBytes, randomUUID } from 'node:crypto';
import {
  bootstrapUsername,
  deviceTopic,
  encodePayload,
  PROTOCOL_VERSION,
  type DeviceState,
  type PairingResponse,
  type TopicKind,
} from '@flowbox/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { pricingPlans, zoneSubscriptions } from '../db/schema.ts';
import { JobRunner, type JobLog } from '../jobs/index.ts';
import { messagingJobs, startJobs } from '../jobs/registry.ts';
import { startDeviceMessaging, type DeviceMessaging, type MessagingOptions } from '../mqtt/index.ts';
import { freePort, type ApiClient, type TestApp } from '../test/harness.ts';
import type { CommandsService } from './commands.service.ts';

/*
 * Test helpers for the device side (issue #4): the real messaging of a test app on a free port, and
 * a bare mqtt.js device speaking the protocol, so tests see exactly what crosses the broker.
 */

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Starts the app's device messaging with fast job passes, so tests wait milliseconds, not seconds. */
export async function startMessaging(
  t: TestApp,
  mqttUrl?: string,
  shareGroup?: string,
  {
    accountsReconcileMs,
    ...more
  }: Pick<MessagingOptions, 'dynsec' | 'writer' | 'ingestConnections' | 'ingestInFlight'> &
    Partial<Pick<MessagingOptions, 'log'>> & { accountsReconcileMs?: number } = {},
): Promise<DeviceMessaging & { port: number }> {
  const port = await freePort();
  const messaging = await startDeviceMessaging({
    mqttUrl,
    port,
    host: '127.0.0.1',
    ctx: t.services.context,
    link: t.services.deviceLink,
    flowboxes: t.services.flowboxes,
    commands: t.services.commands,
    telemetry: t.services.telemetry,
    log: silent,
    shareGroup,
    ...more,
  });
  const periods = {
    command_dispatch: 50,
    heartbeat_check: 50,
    device_accounts_reconcile: accountsReconcileMs,
  };
  return { ...withMessagingJobs(messaging, t.services.commands, { periods, log: more.log }), port };
}

/**
 * Device messaging with its jobs (jobs/registry.ts) running on a runner of their own, as server.ts
 * runs them on the instance's; `periods` sets some jobs' periods by name. Closing it stops them first.
 */
export function withMessagingJobs(
  messaging: DeviceMessaging,
  commands: CommandsService,
  options: { periods?: Record<string, number | undefined>; log?: JobLog } = {},
): DeviceMessaging {
  const jobs = messagingJobs(messaging, commands).map((job) => ({
    ...job,
    everyMs: options.periods?.[job.name] ?? job.everyMs,
  }));
  const stopJobs = startJobs(new JobRunner({ log: options.log ?? silent }), jobs);
  return {
    ...messaging,
    close: async () => {
      await stopJobs();
      await messaging.close();
    },
  };
}

/** Polls until the check passes (STYLE.md: wait on conditions, not sleeps). */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 5000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A serial nobody else uses in this run (the external broker is shared between runs). */
export const uniqueSerial = (prefix = 'FBT') => `${prefix}-${randomBytes(5).toString('hex').toUpperCase()}`;
export const newSecret = () => randomBytes(32).toString('base64url');

/** A zone may pair only with a subscription (spec §5): a plan and an active subscription, written directly. */
export async function subscribe(t: TestApp, zoneId: string): Promise<void> {
  const [plan] = await t.db
    .insert(pricingPlans)
    .values({ name: 'Test plan', regions: ['FR'] })
    .returning();
  await t.db.insert(zoneSubscriptions).values({
    zoneId,
    planId: plan!.id,
    serviceLevel: 'basic',
    startDate: '2026-01-01',
    renewalDate: '2027-01-01',
  });
}

export type Received = { topic: string; message: Record<string, unknown> };

/** One device connection, recording what it receives. */
export class TestDevice {
  readonly received: Received[] = [];
  private constructor(
    readonly serial: string,
    readonly client: MqttClient,
  ) {
    client.on('message', (topic, payload) => {
      this.received.push({ topic, message: JSON.parse(payload.toString()) as Record<string, unknown> });
    });
  }

  /** Signs in; rejects when the broker refuses (bad credentials). */
  static async connect(
    url: string,
    serial: string,
    credentials: { username: string; password: string },
    options: { will?: boolean } = {},
  ): Promise<TestDevice> {
    const client = await mqtt.connectAsync(url, {
      ...credentials,
      clientId: credentials.username,
      reconnectPeriod: 0,
      connectTimeout: 3000,
      ...(options.will
        ? {
            will: {
              topic: deviceTopic(serial, 'presence'),
              payload: Buffer.from(
                encodePayload({
                  v: PROTOCOL_VERSION,
                  at: new Date().toISOString(),
                  status: 'offline',
                  reason: 'connection_lost',
                }),
              ),
              qos: 1 as const,
              retain: true,
            },
          }
        : {}),
    });
    return new TestDevice(serial, client);
  }

  static bootstrap(url: string, serial: string, factorySecret: string): Promise<TestDevice> {
    return TestDevice.connect(url, serial, { username: bootstrapUsername(serial), password: factorySecret });
  }

  async subscribe(kind: TopicKind): Promise<number> {
    const [granted] = await this.client.subscribeAsync(deviceTopic(this.serial, kind), { qos: 1 });
    return granted!.qos;
  }

  async publish(
    kind: TopicKind,
    message: object | string,
    topic = deviceTopic(this.serial, kind),
  ): Promise<void> {
    await this.client.publishAsync(topic, typeof message === 'string' ? message : encodePayload(message), {
      qos: 1,
    });
  }

  /**
   * Step 2: asks to be paired, and waits for the answer to this request. On a broker shared with
   * other runs, their servers (other databases) answer `not_prepared` too: `awaited` skips those.
   */
  async requestPairing(
    fields: { model?: string; water_temperature?: string } = {},
    awaited?: PairingResponse['result'],
  ): Promise<PairingResponse> {
    const requestId = randomUUID();
    const seen = this.received.length;
    await this.requestPairingAgain(requestId, fields);
    const answer = await until(() =>
      this.received
        .slice(seen)
        .find(
          (r) =>
            r.message.request_id === requestId &&
            r.topic.endsWith('pairing/response') &&
            (awaited === undefined || r.message.result === awaited),
        ),
    );
    return answer.message as PairingResponse;
  }

  /** Publishes a pairing request with the given id (a device repeating its request) and does not wait. */
  async requestPairingAgain(
    requestId: string,
    fields: { model?: string; water_temperature?: string } = {},
  ): Promise<void> {
    await this.publish('pairing/request', {
      v: PROTOCOL_VERSION,
      request_id: requestId,
      serial: this.serial,
      at: new Date().toISOString(),
      model: fields.model ?? 'one_inch_v1',
      water_temperature: fields.water_temperature ?? 'cold',
      versions: { esp: '5.1.2', board: 'B3', firmware: '2.4.0' },
    });
  }

  /** Acknowledges a command as done (docs/protocol.md `acks`). */
  acknowledge(commandId: string): Promise<void> {
    return this.publish('acks', {
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: new Date().toISOString(),
      result: 'done',
      reason: null,
    });
  }

  /** The next message on a topic kind after `after` messages. */
  next(kind: TopicKind, after = 0): Promise<Received> {
    return until(() => this.received.slice(after).find((r) => r.topic === deviceTopic(this.serial, kind)));
  }

  end(): Promise<void> {
    return this.client.endAsync(true);
  }
}

export function deviceState(overrides: Partial<DeviceState> = {}): DeviceState {
  return {
    v: PROTOCOL_VERSION,
    at: new Date().toISOString(),
    valve: 'opened',
    maintenance_mode: false,
    leak_detection_mode: false,
    leak_detection_until: null,
    model: 'one_inch_v1',
    water_temperature: 'cold',
    versions: { esp: '5.1.2', board: 'B3', firmware: '2.4.0' },
    network: { interface: 'wifi', address: '10.0.0.12', gateway: '10.0.0.1', wifi_ssid: 'site-wifi' },
    temperature_c: 18.5,
    humidity_pct: 54,
    ...overrides,
  };
}

/**
 * A device paired through an external broker that makes device accounts (dynamic security): the
 * bootstrap handshake on `bootstrapUrl`, then the device signs in with its own secret on `deviceUrl`
 * (the same broker, or another of several).
 */
export async function pairThroughBroker(
  api: ApiClient,
  zone: string,
  {
    bootstrapUrl,
    deviceUrl = bootstrapUrl,
    prefix,
  }: { bootstrapUrl: string; deviceUrl?: string; prefix: string },
) {
  const serial = uniqueSerial(prefix);
  const factorySecret = newSecret();
  const prepared = await api.post(`${zone}/flowboxes/pair`, { serial, factory_secret: factorySecret });
  if (prepared.statusCode !== 201)
    throw new Error(`pairing not prepared: ${prepared.statusCode} ${prepared.body}`);
  const path = `${zone}/flowboxes/${prepared.json().id}`;
  const bootstrap = await TestDevice.bootstrap(bootstrapUrl, serial, factorySecret);
  await bootstrap.subscribe('pairing/response');
  const request = await bootstrap.requestPairing();
  if (request.result !== 'pending') throw new Error(`pairing request answered ${request.result}`);
  const seen = bootstrap.received.length;
  const validated = await api.post(`${path}/validate`);
  if (validated.statusCode !== 200) throw new Error(`pairing not validated: ${validated.statusCode}`);
  const password = String((await bootstrap.next('pairing/response', seen)).message.password);
  await bootstrap.end();
  const device = await TestDevice.connect(deviceUrl, serial, { username: serial, password });
  return { serial, factorySecret, password, path, device, id: prepared.json().id as string };
}
