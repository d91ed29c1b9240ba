import { randomBytes } from 'node:crypto';
import {
  deviceTopic,
  encodePayload,
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

/**
 * A paired device that sends readings with known seqs, volumes and dates, and events, over QoS 1.
 * mqtt.js keeps every unacknowledged message and sends it again on each reconnection, so a message
 * counts as delivered only once the broker's PUBACK came (the server sends it once stored).
 */
export class KnownDevice {
  readonly client: MqttClient;
  /** seq → litres of every reading published. */
  readonly readings = new Map<number, number>();
  readonly events = new Set<number>();
  private readonly pending = new Set<Promise<unknown>>();
  private nextSeq = 1;
  private nextEventSeq = 1;
  acked = 0;

  constructor(
    brokerUrl: string,
    readonly serial: string,
    password: string,
    /** The first reading ends here; each next one a minute later. */
    private readonly startMs: number,
  ) {
    this.client = mqtt.connect(brokerUrl, {
      username: serial,
      password,
      clientId: serial,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 250,
      connectTimeout: 5_000,
      keepalive: 30,
    });
    // Connection refusals and drops are what these cases provoke: the client reconnects on its own.
    this.client.on('error', () => undefined);
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
    this.track(
      this.client.publishAsync(deviceTopic(this.serial, 'telemetry'), encodePayload(reading), { qos: 1 }),
    );
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
    this.track(
      this.client.publishAsync(deviceTopic(this.serial, 'events'), encodePayload(event), { qos: 1 }),
    );
    return seq;
  }

  /** Publishes any message of this device (an ack, a state) over QoS 1. */
  send(kind: 'acks' | 'state', message: object): void {
    this.track(this.client.publishAsync(deviceTopic(this.serial, kind), encodePayload(message), { qos: 1 }));
  }

  /** Resolves once every message sent so far was acknowledged. */
  async settled(timeoutMs = 60_000): Promise<void> {
    await until(`${this.serial}'s messages acknowledged`, () => this.pending.size === 0, timeoutMs);
  }

  get unacknowledged(): number {
    return this.pending.size;
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }

  private track(published: Promise<unknown>): void {
    const tracked: Promise<unknown> = published.then(
      () => {
        this.acked += 1;
        this.pending.delete(tracked);
      },
      () => undefined,
    );
    this.pending.add(tracked);
  }
}

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
        `SELECT r.seq, r.volume_ml FROM telemetry_readings r JOIN flowboxes f ON f.id = r.flowbox_id
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
