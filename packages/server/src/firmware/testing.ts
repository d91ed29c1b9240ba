import { randomBytes } from 'node:crypto';
import {
  encodePayload,
  FIRMWARE_MAX_BYTES,
  FIRMWARE_URL_TTL_S,
  firmwareFileName,
  PROTOCOL_VERSION,
  type DeviceState,
  type FirmwareFailureReason,
  type FlowboxModel,
} from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import type { Db } from '../db/client.ts';
import { firmwareImageCustomers, firmwareImages, firmwareUpdates, flowboxes } from '../db/schema.ts';
import { writeFile } from '../files/files.store.ts';
import { deviceState } from '../flowboxes/testing.ts';
import { LIVE_CHANNEL } from '../live/index.ts';
import type { FlowboxIngest } from '../flowboxes/ingest.service.ts';
import { createZones } from '../telemetry/testing.ts';
import type { TestApp } from '../test/harness.ts';
import { signDownloadToken } from './download-token.ts';

/*
 * Test fixtures for firmware updates: catalogue images written directly (the catalogue's upload is
 * its own domain) and a device that speaks the firmware protocol through the real ingest path.
 */

export async function insertImage(
  db: Db,
  fields: { version: string; models?: FlowboxModel[]; customers?: string[]; status?: 'active' | 'withdrawn' },
) {
  const models = fields.models ?? ['one_inch_v1'];
  const file = await writeFile(db, randomBytes(2048), {
    contentType: 'application/octet-stream',
    maxBytes: FIRMWARE_MAX_BYTES,
  });
  const [image] = await db
    .insert(firmwareImages)
    .values({
      fileId: file.id,
      version: fields.version,
      models,
      fileName: firmwareFileName(models, fields.version),
      size: file.byteSize,
      sha256: file.sha256,
      status: fields.status ?? 'active',
      releasedToAll: fields.customers === undefined,
    })
    .returning();
  if (fields.customers?.length)
    await db
      .insert(firmwareImageCustomers)
      .values(fields.customers.map((customerId) => ({ imageId: image!.id, customerId })));
  return image!;
}

/**
 * A firmware update of the flowbox to the image, written directly in `state` (started unless told),
 * and the URL its device downloads the image from: a token signed as the update job signs it, good
 * for FIRMWARE_URL_TTL_S from the test clock's now.
 */
export async function updateWithDownload(
  t: TestApp,
  flowbox: { flowboxId: string; serial: string },
  image: { id: string; version: string },
  state: 'requested' | 'started' | 'success' | 'cancelled' = 'started',
): Promise<{ id: string; url: string; token: string }> {
  const now = t.clock.now();
  const [update] = await t.db
    .insert(firmwareUpdates)
    .values({
      flowboxId: flowbox.flowboxId,
      imageId: image.id,
      targetVersion: image.version,
      state,
      origin: 'web',
      stateChangedAt: now,
      finishedAt: state === 'success' || state === 'cancelled' ? now : null,
    })
    .returning();
  const expiresAt = new Date(now.getTime() + FIRMWARE_URL_TTL_S * 1000);
  const token = signDownloadToken(
    { serial: flowbox.serial, imageId: image.id, updateId: update!.id, expiresAt },
    t.services.context.config.jwtSecret,
  );
  return { id: update!.id, url: `/v1/firmware/download/${token}`, token };
}

/** A customer with `count` connected one_inch_v1 flowboxes on 2.4.0, spread over ten zones, by serial. */
export async function insertFleet(db: Db, count: number, prefix: string) {
  const zones = await createZones(db, 'Europe/Paris', 10);
  const rows = await db
    .insert(flowboxes)
    .values(
      Array.from({ length: count }, (_, i) => ({
        serial: `${prefix}-${String(i).padStart(4, '0')}`,
        zoneId: zones[i % zones.length]!.zoneId,
        pairingState: 'ready' as const,
        model: 'one_inch_v1' as const,
        firmwareVersion: '2.4.0',
        connected: true,
        connectionChangedAt: new Date(Date.now() - 3_600_000),
        lastSeenAt: new Date(),
      })),
    )
    .returning();
  return { customerId: zones[0]!.customerId, zones, flowboxes: rows };
}

/** A paired flowbox as a device reports it: its model, version and connection. */
export async function setDevice(
  db: Db,
  flowboxId: string,
  fields: { model?: FlowboxModel; firmware?: string; connected?: boolean } = {},
): Promise<void> {
  await db
    .update(flowboxes)
    .set({
      model: fields.model ?? 'one_inch_v1',
      firmwareVersion: fields.firmware ?? '2.4.0',
      connected: fields.connected ?? true,
      connectionChangedAt: new Date(Date.now() - 3_600_000),
      lastSeenAt: new Date(),
    })
    .where(eq(flowboxes.id, flowboxId));
}

/** One device's messages, handed to the real ingest as the broker would hand them. */
export class FirmwareDevice {
  private seq = 0;
  constructor(
    private readonly ingest: FlowboxIngest,
    readonly serial: string,
  ) {}

  private send(kind: string, message: object): Promise<void> {
    return this.ingest.handle(
      `flowbox/${this.serial}/${kind}`,
      new TextEncoder().encode(encodePayload(message)),
    );
  }

  progress(
    updateId: string,
    version: string,
    state:
      | 'requesting'
      | 'started'
      | 'downloaded'
      | 'success'
      | 'failed'
      | 'invalid_naming'
      | 'block_download_failed',
    more: { progress_pct?: number | null; bytes?: number; reason?: FirmwareFailureReason; seq?: number } = {},
  ): Promise<void> {
    this.seq = more.seq ?? this.seq + 1;
    return this.send('events', {
      v: PROTOCOL_VERSION,
      seq: this.seq,
      at: new Date().toISOString(),
      type: 'firmware_progress',
      update_id: updateId,
      state,
      version,
      progress_pct: more.progress_pct ?? null,
      ...(more.bytes !== undefined ? { bytes: more.bytes } : {}),
      ...(more.reason ? { reason: more.reason } : {}),
    });
  }

  /** The device's reboot event (a firmware update's: into its new image, or back into the old). */
  reboot(reason: 'firmware_update' | 'power_loss' = 'firmware_update'): Promise<void> {
    this.seq += 1;
    return this.send('events', {
      v: PROTOCOL_VERSION,
      seq: this.seq,
      at: new Date().toISOString(),
      type: 'reboot',
      reason,
    });
  }

  ack(
    commandId: string,
    result: 'accepted' | 'done' | 'refused',
    reason: string | null = null,
  ): Promise<void> {
    return this.send('acks', {
      v: PROTOCOL_VERSION,
      command_id: commandId,
      at: new Date().toISOString(),
      result,
      reason,
    });
  }

  state(firmware: string, overrides: Partial<DeviceState> = {}): Promise<void> {
    return this.send(
      'state',
      deviceState({ versions: { esp: '5.1.2', board: 'B3', firmware }, ...overrides }),
    );
  }

  presence(status: 'online' | 'offline'): Promise<void> {
    return this.send(
      'presence',
      status === 'online'
        ? { v: PROTOCOL_VERSION, at: new Date().toISOString(), status }
        : { v: PROTOCOL_VERSION, at: new Date().toISOString(), status, reason: 'reboot' },
    );
  }
}

/** What the database was sent while `run` ran: each statement's SQL and parameters, in order. */
export type SentStatements = { text: string; params: unknown[] }[];

/**
 * Records the statements `run` sends through this database, transactions included, on PGlite and
 * PostgreSQL alike (drizzle's logger sees every query its sessions send; a transaction's session
 * shares the database's options).
 */
export async function statementsDuring(db: Db, run: () => Promise<unknown>): Promise<SentStatements> {
  const session = (db as unknown as { session: { options: { logger?: Logger }; logger: Logger } }).session;
  const before = { options: session.options.logger, own: session.logger };
  const sent: SentStatements = [];
  const logger: Logger = { logQuery: (text, params) => sent.push({ text, params }) };
  session.options.logger = logger;
  session.logger = logger;
  try {
    await run();
  } finally {
    session.options.logger = before.options;
    session.logger = before.own;
  }
  return sent;
}

/**
 * The live messages among these statements (notifyLive and notifyLiveAll): those notifying the live
 * channel; other channels (the push and webhook queues) carry no JSON message.
 */
export function liveMessagesIn(sent: SentStatements): { type: string }[] {
  return sent
    .filter((s) => s.text.includes('pg_notify') && s.params[0] === LIVE_CHANNEL)
    .flatMap((s) => {
      const parsed = JSON.parse(String(s.params[1])) as { type: string } | { type: string }[];
      return Array.isArray(parsed) ? parsed : [parsed];
    });
}
