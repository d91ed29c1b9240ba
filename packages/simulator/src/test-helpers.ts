import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Aedes, type AedesOptions } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import {
  COMMAND_DEFAULT_TTL_S,
  deviceTopic,
  encodePayload,
  parseDeviceMessage,
  PROTOCOL_VERSION,
  type Command,
  type Confirm,
  type DeviceMessage,
} from '@flowbox/shared';

type MessageOf<K extends DeviceMessage['kind']> = Extract<DeviceMessage, { kind: K }>['message'];

/** The machine's Mosquitto (README "npm test"): anonymous, on 127.0.0.1:1883. */
export const MOSQUITTO_URL = process.env.FLOWBOX_TEST_MQTT ?? 'mqtt://127.0.0.1:1883';

export type TestBroker = { url: string; close: () => Promise<void> };

/** An Aedes broker on a free port, as the server embeds it (DESIGN.md §2). */
export async function startAedes(options: AedesOptions = {}): Promise<TestBroker & { broker: Aedes }> {
  const broker = await Aedes.createBroker(options);
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    broker,
    url: `mqtt://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether a broker answers, so the Mosquitto tests can say why they are skipped. */
export async function brokerReachable(url: string): Promise<boolean> {
  try {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 2000 });
    await client.endAsync();
    return true;
  } catch {
    return false;
  }
}

/**
 * The brokers device behaviour is tested against: the one the server embeds, and Mosquitto, the
 * external broker of production set-ups (skipped when it is not running, failing in CI). Each
 * comes with a start that answers the broker to use.
 */
export async function testBrokers(): Promise<
  Array<[name: string, available: boolean, start: () => Promise<TestBroker>]>
> {
  const mosquittoUp = await brokerReachable(MOSQUITTO_URL);
  if (!mosquittoUp && process.env.CI) throw new Error(`Mosquitto is not reachable at ${MOSQUITTO_URL}`);
  return [
    ['embedded Aedes', true, () => startAedes()],
    ['Mosquitto', mosquittoUp, () => Promise.resolve({ url: MOSQUITTO_URL, close: async () => {} })],
  ];
}

/** A serial no other test run uses, so runs sharing one broker never see each other. */
export function uniqueSerial(label: string): string {
  return `SIM-${label}-${randomBytes(4).toString('hex')}`;
}

/** A random 43-character secret, the shape of factory and device secrets. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Resolves once `condition` holds, asked every few milliseconds; fails after `timeoutMs`. */
export async function until(what: string, condition: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The server's side of one device, reduced to what tests need: it reads everything the device
 * publishes through the shared parser, sends commands, and confirms each reading as the server
 * does once it is stored (docs/protocol.md "Confirmation of committed readings") unless told not to.
 */
export class DeviceObserver {
  readonly messages: DeviceMessage[] = [];
  readonly unreadable: string[] = [];
  /** Confirms every reading it reads; false leaves the device's readings unconfirmed. */
  confirming = true;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly client: MqttClient,
    readonly serial: string,
    private readonly now: () => number,
  ) {
    client.on('message', (topic, payload) => {
      if (topic === deviceTopic(serial, 'confirm')) return;
      const parsed = parseDeviceMessage(topic, payload);
      if (parsed.ok) this.messages.push(parsed.value);
      else this.unreadable.push(`${topic}: ${parsed.reason}`);
      if (parsed.ok && parsed.value.kind === 'telemetry' && this.confirming) {
        const { seq } = parsed.value.message;
        this.confirm([[seq, seq]]).catch(() => undefined);
      }
      for (const wake of this.waiters) wake();
    });
  }

  /** Publishes a confirmation of these ranges of sequence numbers, as the server would (QoS 0). */
  async confirm(telemetry: Confirm['telemetry']): Promise<void> {
    const message: Confirm = { v: PROTOCOL_VERSION, at: new Date(this.now()).toISOString(), telemetry };
    await this.client.publishAsync(deviceTopic(this.serial, 'confirm'), encodePayload(message), { qos: 0 });
  }

  /** The sequence numbers of the readings read, each once, in the order they first came. */
  telemetrySeqs(): number[] {
    return [...new Set(this.of('telemetry').map((t) => t.seq))];
  }

  /** `now` is the server's clock, which dates the commands. */
  static async watch(
    url: string,
    serial: string,
    now: () => number = Date.now,
    options: mqtt.IClientOptions = {},
  ): Promise<DeviceObserver> {
    const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, clean: true, ...options });
    const observer = new DeviceObserver(client, serial, now);
    await client.subscribeAsync(`flowbox/${serial}/#`, { qos: 1 });
    return observer;
  }

  of<K extends DeviceMessage['kind']>(kind: K): MessageOf<K>[] {
    // The filter on `kind` is what makes the cast true.
    return this.messages.filter((m) => m.kind === kind).map((m) => m.message as MessageOf<K>);
  }

  /** Resolves with the first truthy answer of `find`, re-asked on each message; fails after `timeoutMs`. */
  waitFor<T>(what: string, find: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined || found === false) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-5))}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Publishes a command as the server would (or one no device knows); answers its id. */
  async send(
    name: Command['name'] | 'calibrate_meter',
    params: object = {},
    options: { id?: string; issuedAt?: number; ttlS?: number } = {},
  ): Promise<string> {
    const issuedAt = options.issuedAt ?? this.now();
    const id = options.id ?? randomUUID();
    const command = {
      v: PROTOCOL_VERSION,
      id,
      name,
      params,
      issued_at: new Date(issuedAt).toISOString(),
      expires_at: new Date(issuedAt + (options.ttlS ?? COMMAND_DEFAULT_TTL_S) * 1000).toISOString(),
    };
    await this.client.publishAsync(deviceTopic(this.serial, 'commands'), encodePayload(command), { qos: 1 });
    return id;
  }

  acksOf(commandId: string) {
    return this.of('acks').filter((a) => a.command_id === commandId);
  }

  waitForFinalAck(commandId: string) {
    return this.waitFor(`final ack of ${commandId}`, () =>
      this.acksOf(commandId).find((a) => a.result !== 'accepted'),
    );
  }

  /** Empties the device's retained topics, so a shared broker does not keep every test's devices. */
  async clearRetained(): Promise<void> {
    for (const kind of ['state', 'presence'] as const)
      await this.client.publishAsync(deviceTopic(this.serial, kind), '', { qos: 1, retain: true });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
