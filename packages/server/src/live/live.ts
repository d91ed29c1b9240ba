import { PGlite } from '@electric-sql/pglite';
import type { LiveMessage } from '@flowbox/shared';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import { LIVE_CHANNEL } from './live.repo.ts';

type Logger = { warn: (obj: object, msg: string) => void };
export type LiveListener = (message: LiveMessage) => void;

/**
 * Fan-out of live messages through PostgreSQL LISTEN/NOTIFY, so a change made on any instance
 * reaches the browsers connected to every other (DESIGN.md §6). PGlite delivers notifications of
 * its own connection in-process; PostgreSQL needs one dedicated connection, reopened if it drops.
 */
export class LiveHub {
  private readonly listeners = new Set<LiveListener>();
  private stop: (() => Promise<void>) | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const client: unknown = (this.db as { $client?: unknown }).$client;
    if (client instanceof PGlite) {
      const unlisten = await client.listen(LIVE_CHANNEL, (payload) => this.dispatch(payload));
      this.stop = unlisten;
    } else if (client instanceof pg.Pool) {
      await this.listenOnPool(client);
    } else {
      throw new Error('live updates need a PGlite or node-postgres database');
    }
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.stop?.();
  }

  /**
   * LISTEN holds its connection for the life of the instance: it is a client of its own, beside
   * the pool, so that it never takes one of the connections queries and transactions share.
   */
  private async listenOnPool(pool: pg.Pool): Promise<void> {
    const connection = new pg.Client(pool.options);
    let lost = false;
    const onError = (error: Error) => {
      // A connection ended by the server says so twice (its FATAL message, then the socket's end):
      // one reconnection, or there would be two listening connections and every message twice.
      if (lost) return;
      lost = true;
      this.log.warn({ err: error }, 'live updates: listening connection lost, reconnecting');
      connection.removeAllListeners('notification');
      void connection.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.reconnect(pool), 1000).unref();
    };
    connection.on('error', onError);
    try {
      await connection.connect();
      await connection.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      connection.off('error', onError);
      await connection.end().catch(() => undefined);
      // Lost on the way: the error listener has scheduled the reconnection already.
      if (lost) return;
      throw error;
    }
    if (this.closed) {
      // Closed while this reconnection was on its way.
      connection.off('error', onError);
      await connection.end().catch(() => undefined);
      return;
    }
    connection.on('notification', (n: pg.Notification) => {
      if (n.channel === LIVE_CHANNEL && n.payload) this.dispatch(n.payload);
    });
    this.stop = async () => {
      connection.off('error', onError);
      await connection.end().catch(() => undefined);
    };
  }

  private async reconnect(pool: pg.Pool): Promise<void> {
    if (this.closed) return;
    await this.listenOnPool(pool).catch((error: unknown) => {
      this.log.warn({ err: error }, 'live updates: reconnection failed, retrying');
      if (!this.closed) setTimeout(() => void this.reconnect(pool), 5000).unref();
    });
  }

  private dispatch(payload: string): void {
    let message: LiveMessage;
    try {
      message = JSON.parse(payload) as LiveMessage;
    } catch {
      return;
    }
    for (const listener of this.listeners) listener(message);
  }
}
