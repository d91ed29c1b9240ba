import type { Db } from '../db/client.ts';
import type { FlowboxScope } from '../db/scope.ts';

/**
 * One telemetry reading as stored by a committed batch: only readings that were new (a redelivered
 * or replayed (flowbox, seq) is not passed again), in the order the batch stored them.
 */
export type StoredReading = {
  flowboxId: string;
  serial: string;
  /** Where the flowbox sat when the reading was stored: customer, site, building and zone. */
  scope: FlowboxScope;
  zoneId: string;
  seq: number;
  /** End of the measured interval (device clock). */
  measuredAt: Date;
  intervalS: number;
  volumeMl: number;
  flowS: number;
  temperatureC: number | null;
  humidityPct: number | null;
  /** Server clock when the reading arrived (submitted to the writer). */
  receivedAt: Date;
  /**
   * The server's clock when its batch was written, stored as the reading's `received_at`: detection
   * judges the batch at this instant, so that the backtest, replaying stored readings, judges it at
   * the same one. Absent (a hand-made reading): the listener's clock.
   */
  committedAt?: Date;
  /**
   * End of the measured interval on the SERVER's time line (`placeReading`, docs/automation.md
   * "Device clocks"): never after `receivedAt`, whatever the device's clock says. Detection uses it.
   */
  placedAt: Date;
  /**
   * The placement can be trusted as live (`Placement.live`): false for an older device's backlog,
   * whose readings detection uses but never closes the water for.
   */
  live: boolean;
};

/**
 * Something that runs on each batch of new readings (the rules engine, issue #8).
 *
 * - `inTransaction` runs inside the batch's transaction, after the readings and rollups are
 *   written: what it writes commits with them, or not at all. If it throws, the whole batch rolls
 *   back and no message of it is acknowledged, so the broker redelivers them: keep it to database
 *   work that must be atomic with the readings, and do not throw for a data reason. Use `tx` only:
 *   taking another pool connection while the batch holds its own (and its rollup row locks) can
 *   exhaust the pool and stall ingest.
 * - `afterCommit` runs once the batch is committed (and the devices acknowledged); an error is
 *   logged and forgotten. Publishing commands, mail and other side effects belong here.
 */
export type TelemetryListener = {
  name: string;
  inTransaction?: (tx: Db, readings: readonly StoredReading[]) => Promise<void>;
  afterCommit?: (readings: readonly StoredReading[]) => void | Promise<void>;
};

type Logger = { error: (obj: object, msg: string) => void };

/**
 * The registry of telemetry listeners (issue #6 item "room for the rules engine"). One per app
 * (`services.telemetry`); the batch writer calls it for every batch that stored at least one new
 * reading. Listeners run one after the other, in registration order.
 */
export class TelemetryHooks {
  private readonly listeners: TelemetryListener[] = [];

  /** Adds a listener; answers how to remove it. */
  register(listener: TelemetryListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  get size(): number {
    return this.listeners.length;
  }

  /** Inside the batch transaction; an error propagates and rolls the batch back. */
  async runInTransaction(tx: Db, readings: readonly StoredReading[]): Promise<void> {
    if (readings.length === 0) return;
    for (const listener of this.listeners) await listener.inTransaction?.(tx, readings);
  }

  /** After commit; errors are logged, never thrown back at ingest. */
  async runAfterCommit(readings: readonly StoredReading[], log: Logger): Promise<void> {
    if (readings.length === 0) return;
    for (const listener of this.listeners) {
      if (!listener.afterCommit) continue;
      try {
        await listener.afterCommit(readings);
      } catch (error) {
        log.error({ err: error, listener: listener.name }, 'telemetry listener failed after commit');
      }
    }
  }
}
