import type { Context } from '../context.ts';
import { toApiFlowbox } from '../devices/index.ts';
import { notifyLiveAll } from '../live/index.ts';
import { findFlowboxesByIds } from './flowboxes.repo.ts';
import { seePresent } from './presence.repo.ts';

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
 * "Online" presences of paired flowboxes, heartbeats and connections alike, written in batches
 * (issue 32, docs/protocol.md "Presence"): a fleet's devices each send a heartbeat a minute, and all
 * of them connect at once after a broker restart; one transaction each (a read, an update, a
 * commit) held the ingest connection and queued telemetry behind it. A batch is one statement and,
 * when flowboxes came online in it, one more that tells the browsers (in the same transaction).
 * `seen` resolves once the presence's batch committed (the device's acknowledgement waits for it,
 * as telemetry's does): `true` when the flowbox is paired and seen now, `false` when it is not (the
 * caller drops the message). It rejects when the batch failed: the message stays unacknowledged and
 * comes again. One batch at a time; a device's messages stay in order because the caller awaits
 * each before the next (FlowboxIngest).
 */
export class PresenceBatch {
  /** Batches written, presences they took, and flowboxes they found disconnected and connected. */
  readonly counters = { batches: 0, taken: 0, connected: 0 };
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
      const { taken, connected } = await this.ctx.db.transaction(async (tx) => {
        const presence = await seePresent(tx, batch);
        const connected = await findFlowboxesByIds(tx, presence.connected);
        await notifyLiveAll(
          tx,
          connected.map((located) => ({ type: 'flowbox', flowbox: toApiFlowbox(located) })),
        );
        return { taken: presence.serials, connected: connected.length };
      });
      this.counters.batches += 1;
      this.counters.connected += connected;
      for (const entry of batch) {
        if (taken.has(entry.serial)) this.counters.taken += 1;
        entry.resolve(taken.has(entry.serial));
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
