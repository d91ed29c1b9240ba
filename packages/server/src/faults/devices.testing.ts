import { randomBytes } from 'node:crypto';
import {
  CONFIRM_TIMEOUT_S,
  deviceTopic,
  encodePayload,
  parseConfirm,
  PROTOCOL_VERSION,
  type DeviceEvent,
  type Telemetry,
} from '@flowbox/shared';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { expect } from 'vitest';

/*
 * Helpers of the fault cases (docs/reliability.md): throw-away PostgreSQL databases, the terminating
 * of every connection of one, and devices that send known readings and events over a real broker
 * and keep each one until the broker acknowledged it (QoS 1, resent on every reconnection, as
 * docs/protocol.md asks of a device), so that at the end "sent" is exactly known.
 */

export const adminUrl = (): string => {
  const url = process.env.FLOWBOX_TEST_PG;
  if (!url) throw new Error('the fault cases need PostgreSQL: set FLOWBOX_TEST_PG');
  return url;
};

export type ThrowawayDatabase = { name: string; url: string; drop: () => Promise<void> };

/** A fresh, empty PostgreSQL database; `drop` ends its connections and removes it. */
export async function throwawayDatabase(prefix = 'fbx_fault'): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    return (await admin.query<T>(text, values)).rows;
  } finally {
    await admin.end();
  }
}

/**
 * Ends every session on database `name` as an operator's pg_terminate_backend does (or a failover,
 * or a proxy going away): idle pooled connections, connections inside a transaction, the LISTEN
 * connection. Answers how many were ended.
 */
export async function terminateBackends(name: string): Promise<number> {
  const rows = await adminQuery<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
      WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [name],
  );
  return rows.filter((r) => r.ended).length;
}

/** The sessions open on database `name`, with what each last ran. */
export async function sessions(name: string): Promise<{ query: string }[]> {
  return adminQuery(`SELECT query FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
    name,
  ]);
}

/** Polls `check` until it answers true (or throws after `timeoutMs`). */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

type Outgoing = {
  kind: 'telemetry' | 'events' | 'acks' | 'state';
  topic: string;
  payload: string;
  /** Telemetry only: its seq, and when the broker acknowledged it (it then waits for a confirmation). */
  seq?: number;
  ackedAt?: number;
};

export type KnownDeviceOptions = {
  /**
   * Keep each reading until the server's end-to-end confirmation covers it (docs/protocol.md
   * "Confirmation of committed readings"), sending again what stays unconfirmed `confirmTimeoutMs`
   * after its PUBACK and on every reconnection; without it, a PUBACK is the end of a reading.
   */
  confirmations?: boolean;
  confirmTimeoutMs?: number;
};

/**
 * A paired device that sends readings with known seqs, volumes and dates, and events, over QoS 1,
 * as docs/protocol.md asks of a device: every message is kept in its own outbox until the broker
 * acknowledged it (and, with confirmations, until the server confirmed the reading), and all that is
 * kept is sent again on every reconnection, so at the end "sent" is exactly known. It does its own
 * keeping rather than trust mqtt.js's store, which resends one message per round trip and can stall.
 */
export class KnownDevice {
  client: MqttClient;
  /** seq → litres of every reading published. */
  readonly readings = new Map<number, number>();
  readonly events = new Set<number>();
  /** PUBACKs received, confirmations received (readings they covered). */
  acked = 0;
  confirmed = 0;
  private readonly outbox = new Map<string, Outgoing>();
  private nextSeq = 1;
  private nextEventSeq = 1;
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly brokerUrl: string,
    readonly serial: string,
    private readonly password: string,
    /** The first reading ends here; each next one a minute later. */
    private readonly startMs: number,
    private readonly options: KnownDeviceOptions = {},
  ) {
    this.client = this.connect();
    this.timer = setInterval(() => this.resendUnconfirmed(), 500);
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Publishes the next reading (litres by seq, so every reading is known). */
  sendReading(): number {
    const seq = this.nextSeq++;
    const litres = (seq % 7) + 0.125;
    const reading: Telemetry = {
      v: PROTOCOL_VERSION,
      seq,
      at: new Date(this.startMs + seq * 60_000).toISOString(),
      interval_s: 60,
      volume_l: litres,
      flow_s: 30,
      temperature_c: 20,
      humidity_pct: 50,
    };
    this.readings.set(seq, litres);
    this.enqueue(`telemetry:${seq}`, {
      kind: 'telemetry',
      topic: deviceTopic(this.serial, 'telemetry'),
      payload: encodePayload(reading),
      seq,
    });
    return seq;
  }

  /** Publishes the next event: a reboot by its button, recorded in the activity log. */
  sendEvent(): number {
    const seq = this.nextEventSeq++;
    const event: DeviceEvent = {
      v: PROTOCOL_VERSION,
      seq,
      at: new Date().toISOString(),
      type: 'reboot',
      reason: 'button',
    };
    this.events.add(seq);
    this.enqueue(`events:${seq}`, {
      kind: 'events',
      topic: deviceTopic(this.serial, 'events'),
      payload: encodePayload(event),
    });
    return seq;
  }

  /** Publishes any message of this device (an ack, a state) over QoS 1. */
  send(kind: 'acks' | 'state', message: object): void {
    this.enqueue(`${kind}:${randomBytes(6).toString('hex')}`, {
      kind,
      topic: deviceTopic(this.serial, kind),
      payload: encodePayload(message),
    });
  }

  /** Resolves once every message sent so far is done (acknowledged, and confirmed if asked). */
  async settled(timeoutMs = 60_000): Promise<void> {
    await until(`${this.serial}'s messages done`, () => this.outbox.size === 0, timeoutMs);
  }

  /** Messages kept: not acknowledged yet, or readings not confirmed yet. */
  get unacknowledged(): number {
    return this.outbox.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.client.endAsync(true);
  }

  private connect(): MqttClient {
    const client = mqtt.connect(this.brokerUrl, {
      username: this.serial,
      password: this.password,
      clientId: this.serial,
      protocolVersion: 4,
      clean: true,
      // Reconnection is this class's: a fresh client each time, and everything kept sent again.
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      keepalive: 30,
    });
    // Connection refusals and drops are what these cases provoke.
    client.on('error', () => undefined);
    client.on('connect', () => {
      if (this.options.confirmations) {
        client.on('message', (topic, payload) => this.onConfirm(topic, payload));
        client.subscribe(deviceTopic(this.serial, 'confirm'), { qos: 0 });
      }
      for (const [key, message] of [...this.outbox].sort(byKindAndSeq)) {
        // A reading acknowledged but not confirmed is sent again now (its PUBACK may have come from
        // a broker that forgot it); its timer starts again with the new PUBACK.
        message.ackedAt = undefined;
        this.publish(client, key, message);
      }
    });
    client.on('close', () => {
      if (this.closed || client !== this.client) return;
      setTimeout(() => {
        if (this.closed || client !== this.client) return;
        client.removeAllListeners();
        client.on('error', () => undefined);
        void client.endAsync(true).catch(() => undefined);
        this.client = this.connect();
      }, 250);
    });
    return client;
  }

  private enqueue(key: string, message: Outgoing): void {
    this.outbox.set(key, message);
    if (this.client.connected) this.publish(this.client, key, message);
  }

  private publish(client: MqttClient, key: string, message: Outgoing): void {
    client.publish(message.topic, message.payload, { qos: 1 }, (error) => {
      if (error || client !== this.client) return;
      const kept = this.outbox.get(key);
      if (kept !== message) return;
      this.acked += 1;
      if (message.kind === 'telemetry' && this.options.confirmations) message.ackedAt = Date.now();
      else this.outbox.delete(key);
    });
  }

  private onConfirm(topic: string, payload: Buffer): void {
    if (topic !== deviceTopic(this.serial, 'confirm')) return;
    const confirm = parseConfirm(payload);
    if (!confirm.ok) return;
    for (const [first, last] of confirm.message.telemetry)
      for (let seq = first; seq <= last; seq++)
        if (this.outbox.delete(`telemetry:${seq}`)) this.confirmed += 1;
  }

  private resendUnconfirmed(): void {
    if (!this.options.confirmations || !this.client.connected) return;
    const before = Date.now() - (this.options.confirmTimeoutMs ?? CONFIRM_TIMEOUT_S * 1000);
    for (const [key, message] of this.outbox)
      if (message.ackedAt !== undefined && message.ackedAt < before) {
        message.ackedAt = undefined;
        this.publish(this.client, key, message);
      }
  }
}

/** Readings in seq order, then events (the order a device replays its buffer in is its own). */
const byKindAndSeq = ([a]: [string, Outgoing], [b]: [string, Outgoing]) => {
  const [ka, sa] = a.split(':');
  const [kb, sb] = b.split(':');
  return ka === kb ? Number(sa) - Number(sb) : ka! < kb! ? -1 : 1;
};

/**
 * What every fault case ends with: each device's readings stored exactly (seq and litres, none
 * missing, none doubled), the hourly and daily rollups equal to the raw readings, and every event
 * recorded once.
 */
export async function expectAllStored(
  databaseUrl: string,
  devices: readonly KnownDevice[],
  options: { events?: boolean } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const device of devices) {
      const { rows } = await client.query<{ seq: string; volume_ml: string }>(
        `SELECT r.seq, r.volume_ml FROM telemetry_readings r JOIN flowboxes f ON f.num = r.flowbox_num
          WHERE f.serial = $1 ORDER BY r.seq`,
        [device.serial],
      );
      const stored = rows.map((r) => [Number(r.seq), Number(r.volume_ml)]);
      const sent = [...device.readings.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([seq, litres]) => [seq, Math.round(litres * 1000)]);
      expect(stored, `${device.serial}: readings sent = readings stored`).toEqual(sent);
      if (options.events) {
        const receipts = await client.query<{ seq: string }>(
          `SELECT r.sequence AS seq FROM flowbox_receipts r JOIN flowboxes f ON f.id = r.flowbox_id
            WHERE f.serial = $1 ORDER BY r.sequence`,
          [device.serial],
        );
        expect(
          receipts.rows.map((r) => Number(r.seq)),
          `${device.serial}: events sent = events stored`,
        ).toEqual([...device.events].sort((a, b) => a - b));
      }
    }
    const sums = await client.query<{
      raw: string;
      hourly: string;
      daily: string;
      n: string;
      rolled: string;
    }>(
      `SELECT (SELECT coalesce(sum(volume_ml), 0) FROM telemetry_readings) AS raw,
              (SELECT count(*) FROM telemetry_readings) AS n,
              (SELECT coalesce(sum(volume_ml), 0) FROM consumption_hourly) AS hourly,
              (SELECT coalesce(sum(readings), 0) FROM consumption_hourly) AS rolled,
              (SELECT coalesce(sum(volume_ml), 0) FROM consumption_daily) AS daily`,
    );
    const s = sums.rows[0]!;
    expect(s.hourly, 'hourly rollups = raw readings').toBe(s.raw);
    expect(s.daily, 'daily rollups = raw readings').toBe(s.raw);
    expect(s.rolled, 'readings counted in the rollups = readings stored').toBe(s.n);
  } finally {
    await client.end();
  }
}
