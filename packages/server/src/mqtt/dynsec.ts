import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from './broker.ts';

/** Mosquitto's dynamic-security plugin takes JSON commands here and answers on `…/response`. */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

export type DynsecCommand = { command: string } & Record<string, unknown>;
export type DynsecResponse = { command: string; error?: string; data?: unknown; correlationData?: string };

/** How long the broker has to answer a batch of commands. */
const ANSWER_TIMEOUT_MS = 5000;

type Pending = {
  size: number;
  resolve: (responses: DynsecResponse[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

/**
 * A connection to Mosquitto's dynamic-security control topic as its admin account. Commands of one
 * call go in one message and are answered in one, matched by `correlationData`: several instances
 * read the same response topic and keep their own answers only. The connection comes back by
 * itself; while it is down, calls fail at once rather than queue (a grant waits inside a
 * transaction; a revocation is left to the next reconciliation).
 */
export class DynsecControl {
  private readonly pending = new Map<string, Pending>();
  private readonly readyListeners: (() => void)[] = [];
  private readonly prefix = randomBytes(6).toString('hex');
  private sequence = 0;
  private ready = false;
  /** The last refusal logged: a wrong admin password is said once, not at every retry. */
  private lastError = '';

  private constructor(
    private readonly client: MqttClient,
    private readonly log: Logger,
  ) {
    client.on('connect', () => {
      client.subscribe(RESPONSE_TOPIC, { qos: 1 }, (error, granted) => {
        if (error || granted?.[0]?.qos === 128) {
          log.error(
            { err: error },
            'dynamic security: cannot read the response topic (is the account its admin?)',
          );
          return;
        }
        this.ready = true;
        this.lastError = '';
        log.info({}, 'dynamic security connected');
        for (const listener of this.readyListeners) listener();
      });
    });
    client.on('close', () => {
      if (this.ready) log.warn({}, 'dynamic security connection lost; reconnecting');
      this.ready = false;
      this.failAll(new Error('dynamic security connection lost'));
    });
    client.on('error', (error) => {
      if (error.message === this.lastError) return;
      this.lastError = error.message;
      log.warn({ err: error.message }, 'dynamic security connection refused');
    });
    client.on('message', (topic, payload) => {
      if (topic === RESPONSE_TOPIC) this.settle(payload);
    });
  }

  /** Starts connecting (without waiting: the broker may come later; `onReady` says when). */
  static connect(
    url: string,
    account: { username: string; password: string },
    clientId: string,
    log: Logger,
  ): DynsecControl {
    // The broker's address from MQTT_URL, without the server's own credentials (they would win).
    const address = new URL(url);
    address.username = '';
    address.password = '';
    const client = mqtt.connect(address.toString(), {
      ...account,
      clientId,
      protocolVersion: 5,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    });
    return new DynsecControl(client, log);
  }

  get connected(): boolean {
    return this.ready;
  }

  /** Runs on every (re)connection, once the response topic is subscribed. */
  onReady(listener: () => void): void {
    this.readyListeners.push(listener);
    if (this.ready) listener();
  }

  /** Sends the commands in one message; answers their responses in order, errors included. */
  run(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    if (commands.length === 0) return Promise.resolve([]);
    if (!this.ready) return Promise.reject(new Error('dynamic security is not connected'));
    const id = `${this.prefix}-${++this.sequence}`;
    const tagged = commands.map((c, i) => ({ ...c, correlationData: `${id}/${i}` }));
    return new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('dynamic security did not answer in time'));
      }, ANSWER_TIMEOUT_MS);
      this.pending.set(id, { size: commands.length, resolve, reject, timer });
      this.client.publish(DYNSEC_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 }, (error) => {
        if (error) this.fail(id, error);
      });
    });
  }

  async close(): Promise<void> {
    this.failAll(new Error('dynamic security connection closed'));
    await this.client.endAsync();
  }

  private settle(payload: Buffer): void {
    let responses: DynsecResponse[];
    try {
      responses = (JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] }).responses ?? [];
    } catch {
      return;
    }
    const tag = responses.find((r) => typeof r.correlationData === 'string')?.correlationData;
    const id = tag?.slice(0, tag.lastIndexOf('/'));
    const pending = id === undefined ? undefined : this.pending.get(id);
    if (!pending || id === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const ordered = new Array<DynsecResponse>(pending.size);
    responses.forEach((r, i) => {
      const index = r.correlationData?.startsWith(`${id}/`)
        ? Number(r.correlationData.slice(id.length + 1))
        : i;
      ordered[index] = r;
    });
    pending.resolve(ordered.map((r, i) => r ?? { command: 'unknown', error: `no answer for command ${i}` }));
  }

  private fail(id: string, error: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.fail(id, error);
  }
}
