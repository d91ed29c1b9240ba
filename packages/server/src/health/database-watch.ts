import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Readiness } from './readiness.ts';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/** The readiness part this watch reports (docs/reliability.md "Database failures"). */
export const DATABASE_PART = 'database';

/** A probe that has not answered in this long counts as a failure (a database that hangs is away). */
const PROBE_TIMEOUT_MS = 2_000;
/** While the database is up, it is probed this often (a quiet instance notices an outage too)… */
const PROBE_EVERY_MS = 5_000;
/** …and while it is away, this often, so readiness comes back within a second of it. */
const RETRY_EVERY_MS = 500;

/**
 * Keeps the instance's readiness in step with its database: down as soon as a connection breaks
 * (the pool tells `lost`) or a probe fails, up again at the first probe that succeeds. Probes are
 * `SELECT 1` through the pool, as any query goes.
 */
export class DatabaseWatch {
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<boolean> | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly readiness: Readiness,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.schedule(PROBE_EVERY_MS);
  }

  /** A pooled connection broke: down until a probe succeeds, probed again at once. */
  lost(error: Error): void {
    if (this.closed) return;
    this.down(error.message);
    void this.probe();
  }

  /** Probes now (one probe at a time); answers whether the database answered. */
  probe(): Promise<boolean> {
    this.probing ??= this.runProbe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async runProbe(): Promise<boolean> {
    const answered = await answersWithin(this.db, PROBE_TIMEOUT_MS);
    if (answered !== true) {
      this.down(answered);
      this.schedule(RETRY_EVERY_MS);
      return false;
    }
    if (!this.readiness.ready && this.readiness.problems()[DATABASE_PART] !== undefined)
      this.log.info({}, 'database reachable again');
    this.readiness.set(DATABASE_PART);
    this.schedule(PROBE_EVERY_MS);
    return true;
  }

  private down(reason: string): void {
    if (this.readiness.problems()[DATABASE_PART] === undefined)
      this.log.warn({ reason }, 'database unreachable: this instance reports itself not ready');
    this.readiness.set(DATABASE_PART, reason);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), ms);
    this.timer.unref();
  }
}

/** `true` when the database answers `SELECT 1` within `ms`, else why not. */
export async function answersWithin(db: Db, ms: number): Promise<true | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.execute(sql`SELECT 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the database did not answer in time')), ms);
      }),
    ]);
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}
