import type { Context } from '../context.ts';
import { seeConnected } from './presence.repo.ts';

export type PresenceBatchOptions = {
  /** A batch is written as soon as it holds this many heartbeats… */
  maxBatch?: number;
  /** …or this long after its first one arrived. */
  maxWaitMs?: number;
};

type Entry = {
  serial: string;
  at: Date;
  resolve: (taken: boolean) => void;
  reject: (error: unknown) => void;
};

/**
 * Heartbeats ("online" presence) of connected flowboxes written in batches (issue 32, docs/protocol.md
 * "Presence"): a fleet's devices each send one a minute, and one transaction each (a read, an update,
 * a commit) held the ingest connection and queued telemetry behind it. `seen` resolves once the
 * heartbeat's batch committed (the device's acknowledgement waits for it, as telemetry's does):
 * `true` when the flowbox was connected and paired and is seen now, `false` when the caller must
 * apply it one by one (a connection that changes, an unknown device). It rejects when the batch
 * failed: the message stays unacknowledged and comes again. One batch at a time; a device's
 * messages stay in order because the caller awaits each before the next (FlowboxIngest).
 */
export class PresenceBatch {
  /** Batches written, and heartbeats they took (the others went on one by one). */
  readonly counters = { batches: 0, taken: 0 };
  private queue: Entry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | null = null;
  private readonly maxBatch: number;
  private readonly maxWaitMs: number;

  constructor(
    private readonly ctx: Context,
    options: PresenceBatchOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 2000;
    this.maxWaitMs = options.maxWaitMs ?? 10;
  }

  seen(serial: string): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ serial, at: this.ctx.now(), resolve, reject });
      this.schedule();
    });
  }

  /** Writes what is queued and waits for it. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.writing) {
      if (this.writing) await this.writing;
      else this.start();
    }
  }

  private schedule(): void {
    if (this.writing) return;
    if (this.queue.length >= this.maxBatch) return this.start();
    this.timer ??= setTimeout(() => this.start(), this.maxWaitMs);
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.writing = this.write(batch).finally(() => {
      this.writing = null;
      if (this.queue.length > 0) this.schedule();
    });
  }

  private async write(batch: Entry[]): Promise<void> {
    try {
      const taken = await seeConnected(this.ctx.db, batch);
      this.counters.batches += 1;
      for (const entry of batch) {
        if (taken.has(entry.serial)) this.counters.taken += 1;
        entry.resolve(taken.has(entry.serial));
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
