import type { Telemetry } from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { toApiFlowbox, type WriterCounters } from '../devices/index.ts';
import { isConnectionError, isDataError, isDiskFull, sqlState } from '../db/errors.ts';
import type { TelemetryHooks } from './hooks.ts';
import { storeBatch, type BatchEntry, type Outcome, type StoredBatch } from './batch-store.ts';
import { flowboxRows, notifyLiveMany, type BatchFlowbox } from './telemetry.repo.ts';
import { ConsumptionThrottle, LIVE_MEMORY } from './live-throttle.ts';
import { inSpan, type Tracing } from '../tracing/tracing.ts';

export type { Outcome } from './batch-store.ts';

export type WriterOptions = {
  /** A batch is written as soon as it holds this many readings… */
  maxBatch?: number;
  /** …or this long after its first reading arrived. */
  maxWaitMs?: number;
  /** Batches written at the same time (PGlite has one connection: 1). */
  concurrency?: number;
  /** At most one `consumption` live message per zone per this many ms. */
  liveEveryMs?: number;
  /** Told how long each batch took to write (retries and splits included), committed or not. */
  onBatchWritten?: (seconds: number) => void;
  /** With tracing on: a span per batch, its queries its children (docs/operations.md "Tracing"). */
  tracing?: Tracing;
  /**
   * Told when the database's disk filled (the problem, for readiness) and when a batch committed
   * again after it (undefined): docs/operations.md "When the disk fills".
   */
  onStorage?: (problem: string | undefined) => void;
};

/** While the database's disk is full, readings are refused at once, and a batch tried this often. */
export const DISK_FULL_RETRY_MS = 5_000;

/** A reading refused at once because the database's disk is full: not acknowledged, sent again. */
export class DiskFullError extends Error {
  constructor() {
    super('the database disk is full: readings are not taken until it has room');
    this.name = 'DiskFullError';
  }
}

type Logger = { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

type Entry = BatchEntry & {
  resolve: (outcome: Outcome) => void;
  reject: (error: unknown) => void;
};

/** A flowbox's `flowbox` live message on telemetry: on (re)connection, else at most this often. */
const FLOWBOX_LIVE_EVERY_MS = 10_000;
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 3;
/** Waits before each new attempt of a batch whose connection was lost: about 2 s in all. */
const CONNECTION_RETRY_MS = [100, 500, 1500];

/**
 * The telemetry batch writer (issue #6, docs/telemetry.md). Readings from any number of devices and
 * connections queue here; a batch is written when it is full or a few milliseconds old, in ONE
 * transaction: the raw readings (multi-row insert, a known (flowbox, seq) skipped), the hourly and
 * daily rollups of the readings actually inserted (one multi-row upsert each), each flowbox's latest
 * figures once, and the registered listeners (the rules engine). `submit` resolves only once that
 * transaction has committed, and rejects if it failed: the broker's acknowledgement waits on it.
 *
 * Back-pressure: while `concurrency` batches are being written, new readings wait in the queue and
 * the next batch is larger (up to `maxBatch`); nobody is acknowledged meanwhile, so devices and the
 * broker hold their messages (a device has a bounded in-flight window) instead of this process.
 */
export class TelemetryWriter {
  readonly counters: WriterCounters = {
    batches: 0,
    stored: 0,
    duplicates: 0,
    unknown_device: 0,
    failed_batches: 0,
    rejected: 0,
    splits: 0,
    retries: 0,
    largest_batch: 0,
    queued: 0,
    writing: 0,
  };
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;
  private readonly concurrency: number;
  private readonly liveEveryMs: number;
  private queue: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private readonly flowboxNotified = new Map<string, number>();
  private readonly live: ConsumptionThrottle;
  private readonly onBatchWritten: ((seconds: number) => void) | undefined;
  private readonly tracing: Tracing | undefined;
  private readonly onStorage: ((problem: string | undefined) => void) | undefined;
  /** Until when readings are refused at once, the database's disk being full (ms; 0: it is not). */
  private diskFullUntil = 0;

  constructor(
    private readonly ctx: Context,
    private readonly hooks: TelemetryHooks,
    private readonly log: Logger,
    options: WriterOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 5;
    this.concurrency = options.concurrency ?? 1;
    this.liveEveryMs = options.liveEveryMs ?? 1000;
    this.onBatchWritten = options.onBatchWritten;
    this.tracing = options.tracing;
    this.onStorage = options.onStorage;
    this.live = new ConsumptionThrottle(ctx, log, this.liveEveryMs);
  }

  /** Resolves once the reading's batch has committed (stored, or known already); rejects if it failed. */
  submit(serial: string, telemetry: Telemetry): Promise<Outcome> {
    // The disk is full: refused at once (no queue grows in memory), tried again after a while.
    if (this.diskFullUntil > 0 && this.ctx.now().getTime() < this.diskFullUntil)
      return Promise.reject(new DiskFullError());
    return new Promise<Outcome>((resolve, reject) => {
      this.queue.push({ serial, telemetry, receivedAt: this.ctx.now(), resolve, reject });
      this.counters.queued = this.queue.length;
      this.schedule();
    });
  }

  /** Writes what is queued and waits for every batch in flight. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.running.size > 0) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
      while (this.queue.length > 0 && this.inFlight < this.concurrency) this.startBatch();
      await Promise.race(this.running);
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.live.close();
  }

  private schedule(): void {
    if (this.inFlight >= this.concurrency) return;
    if (this.queue.length >= this.maxBatch) {
      this.startBatch();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.inFlight < this.concurrency && this.queue.length > 0) this.startBatch();
    }, this.maxWaitMs);
  }

  private startBatch(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.queue.splice(0, this.maxBatch);
    this.counters.queued = this.queue.length;
    this.counters.writing += batch.length;
    this.inFlight += 1;
    const run: Promise<void> = this.write(batch).finally(() => {
      this.inFlight -= 1;
      this.running.delete(run);
      if (this.queue.length > 0) {
        if (this.queue.length >= this.maxBatch) this.startBatch();
        else this.schedule();
      }
    });
    this.running.add(run);
  }

  private async write(batch: Entry[]): Promise<void> {
    this.counters.batches += 1;
    this.counters.largest_batch = Math.max(this.counters.largest_batch, batch.length);
    const startedAt = performance.now();
    try {
      // A root span: a batch gathers many devices' readings, none of whose work it is part of.
      if (this.tracing)
        await inSpan(
          this.tracing,
          'telemetry.batch',
          { kind: 'consumer', root: true, attributes: { 'messaging.batch.message_count': batch.length } },
          () => this.writeOrSplit(batch),
        );
      else await this.writeOrSplit(batch);
    } finally {
      this.onBatchWritten?.((performance.now() - startedAt) / 1000);
    }
  }

  /**
   * Writes a batch; if it fails for its own values (anything but a lost database, which no
   * splitting mends), writes each half on its own, down to the one reading at fault: one device's
   * bad reading never fails the others' in its batch (issue #13 item 4). That reading is dropped
   * and counted (`rejected`) when the database refused its values (a data exception: the same
   * values fail again however often they are sent), else left unacknowledged like any failure.
   */
  private async writeOrSplit(batch: Entry[]): Promise<void> {
    const committed = await this.commit(batch);
    if (committed.ok) {
      const { result } = committed;
      if (this.diskFullUntil > 0) {
        this.diskFullUntil = 0;
        this.log.warn({}, 'the database has room again: readings are taken');
        this.onStorage?.(undefined);
      }
      this.counters.writing -= batch.length;
      batch.forEach((entry, i) => entry.resolve(result.outcomes[i]!));
      for (const outcome of result.outcomes) {
        if (outcome === 'stored') this.counters.stored += 1;
        else if (outcome === 'duplicate') this.counters.duplicates += 1;
        else this.counters.unknown_device += 1;
      }
      this.live.add(result.stored, result.zones);
      await this.hooks.runAfterCommit(result.stored, this.log);
      return;
    }
    const { error } = committed;
    if (isDiskFull(error)) {
      // No room: no split mends it, and nothing of the batch was stored (its transaction failed).
      if (this.diskFullUntil === 0) {
        this.log.error({ err: error }, 'the database disk is full: readings are refused until it has room');
        this.onStorage?.('database disk full: readings are refused, devices keep them');
      }
      this.diskFullUntil = this.ctx.now().getTime() + DISK_FULL_RETRY_MS;
      this.counters.writing -= batch.length;
      this.counters.failed_batches += 1;
      for (const entry of batch) entry.reject(error);
      return;
    }
    if (batch.length > 1 && !isConnectionError(error)) {
      this.counters.splits += 1;
      const half = Math.ceil(batch.length / 2);
      await this.writeOrSplit(batch.slice(0, half));
      await this.writeOrSplit(batch.slice(half));
      return;
    }
    if (batch.length === 1 && (isDataError(error) || error instanceof RangeError)) {
      const [entry] = batch as [Entry];
      this.counters.writing -= 1;
      this.counters.rejected += 1;
      this.log.warn(
        { err: error, serial: entry.serial, seq: entry.telemetry.seq, at: entry.telemetry.at },
        'telemetry reading refused by the database; dropped',
      );
      entry.resolve('rejected');
      return;
    }
    this.counters.writing -= batch.length;
    this.counters.failed_batches += 1;
    this.log.error({ err: error, readings: batch.length }, 'telemetry batch failed; not acknowledged');
    for (const entry of batch) entry.reject(error);
  }

  /**
   * The batch's transaction, tried again on a deadlock or serialisation failure (at once) and on a
   * lost connection (after a short wait: the pool opens a fresh one; PostgreSQL restarting or
   * failing over takes a moment). Readings are keyed by (flowbox, seq), so a commit whose answer
   * was lost with its connection stores nothing twice when tried again.
   */
  private async commit(
    batch: Entry[],
  ): Promise<{ ok: true; result: StoredBatch } | { ok: false; error: unknown }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const now = this.ctx.now();
        const result = await this.ctx.db.transaction(async (tx) => {
          const stored = await storeBatch(tx, batch, now);
          await this.notifyFlowboxes(tx, stored.found, stored.newest, now);
          await this.hooks.runInTransaction(tx, stored.stored);
          return stored;
        });
        return { ok: true, result };
      } catch (error) {
        const code = sqlState(error);
        if (attempt < MAX_ATTEMPTS && code && RETRYABLE.has(code)) {
          this.counters.retries += 1;
          continue;
        }
        const wait = CONNECTION_RETRY_MS[attempt - 1];
        if (wait !== undefined && isConnectionError(error)) {
          this.counters.retries += 1;
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        return { ok: false, error };
      }
    }
  }

  /**
   * The `flowbox` live message (its new flow, climate, connection): when it (re)connects, else at
   * most every 10 s per flowbox, so a replay or a fast device does not flood the browsers; open
   * pages also refetch on the zone's `consumption` message.
   */
  private async notifyFlowboxes(
    tx: Db,
    found: BatchFlowbox[],
    latest: Map<string, unknown>,
    now: Date,
  ): Promise<void> {
    const due = found.filter((f) => {
      if (!latest.has(f.flowbox.id)) return false;
      if (!f.flowbox.connected) return true;
      const last = this.flowboxNotified.get(f.flowbox.id);
      return last === undefined || now.getTime() - last >= FLOWBOX_LIVE_EVERY_MS;
    });
    if (due.length === 0) return;
    if (this.flowboxNotified.size >= LIVE_MEMORY) this.flowboxNotified.clear();
    for (const f of due) this.flowboxNotified.set(f.flowbox.id, now.getTime());
    const scopes = new Map(due.map((f) => [f.flowbox.id, f.scope]));
    const rows = await flowboxRows(tx, [...scopes.keys()]);
    await notifyLiveMany(
      tx,
      rows.map((flowbox) => ({
        type: 'flowbox',
        flowbox: toApiFlowbox({ flowbox, scope: scopes.get(flowbox.id)! }),
      })),
    );
  }
}
