import { PGlite } from '@electric-sql/pglite';
import type { LiveMessage } from '@flowbox/shared';
import pg from 'pg';
import type { Db } from '../db/client.ts';
import { LIVE_CHANNEL } from './live.repo.ts';

/**
 * A round trip on the listening connection slower than this counts as the connection lost
 * (docs/reliability.md "Database failures"): one that stopped answering without an error (a stalled
 * network path: no FIN, no RST) would otherwise hold every request for this long, for as long as
 * it lasts, while notifications go unheard.
 */
const HEARD_TIMEOUT_MS = 2000;
/** A quiet instance still sends a round trip this often, so that a stalled connection is found. */
const HEARTBEAT_MS = 5000;

async function answeredWithin(query: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}

type Logger = { warn: (obj: object, msg: string) => void };
export type LiveListener = (message: LiveMessage) => void;
/** Told each time the instance starts or stops hearing notifications (the connection's state). */
export type HearingListener = (hearing: boolean) => void;

/**
 * Fan-out of live messages through PostgreSQL LISTEN/NOTIFY, so a change made on any instance
 * reaches the browsers connected to every other (DESIGN.md §6). PGlite delivers notifications of
 * its own connection in-process; PostgreSQL needs one dedicated connection, reopened if it drops.
 * Other channels (the sessions' invalidations, auth/session-cache.ts) share that connection.
 */
export class LiveHub {
  private readonly listeners = new Set<LiveListener>();
  private readonly channels = new Map<string, (payload: string) => void>([
    [LIVE_CHANNEL, (payload) => this.dispatch(payload)],
  ]);
  private readonly hearingListeners = new Set<HearingListener>();
  private stop: (() => Promise<void>) | undefined;
  private closed = false;
  private hearing = false;
  /** PostgreSQL: one round trip on the listening connection (see `heard`). */
  private roundTrip: (() => Promise<void>) | undefined;
  /** The `heard` round trip not sent yet, which callers share; and the one before it. */
  private nextCheck: Promise<void> | undefined;
  private lastCheck: Promise<void> = Promise.resolve();
  /** Round trips sent, and the latest of them answered (they are answered in the order sent). */
  private sent = 0;
  private answered = 0;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Another channel on the same connection; before `start`. */
  listenTo(channel: string, handler: (payload: string) => void): void {
    this.channels.set(channel, handler);
  }

  /**
   * Whether every notification sent from now on reaches this instance: false before start, after
   * close, and from the moment the listening connection breaks until it listens again.
   */
  get listening(): boolean {
    return this.hearing;
  }

  /**
   * Resolves once every notification of a transaction committed before this call has been handed
   * to its channel's handler; rejects when the instance is not listening. PGlite hands them over
   * within the commit itself. PostgreSQL sends a session the notifications it was told of before
   * each ReadyForQuery, on the same connection: one round trip there, sent after this call, is
   * enough. Callers whose round trip is not sent yet share it, so a busy instance sends one for
   * many requests.
   */
  heard(): Promise<void> {
    if (!this.hearing) return Promise.reject(new Error('not listening'));
    if (!this.roundTrip) return Promise.resolve();
    if (!this.nextCheck) {
      const check = this.lastCheck.then(async () => {
        this.nextCheck = undefined;
        if (!this.roundTrip) throw new Error('not listening');
        const number = ++this.sent;
        await this.roundTrip();
        this.answered = number;
      });
      this.nextCheck = check;
      this.lastCheck = check.catch(() => undefined);
    }
    return this.nextCheck;
  }

  /** This moment, for `heardSince`: taken when a request arrives. */
  mark(): number {
    return this.sent;
  }

  /**
   * As `heard`, for a caller that took `mark()` when its request arrived: a round trip sent after
   * that (another caller's, the authentication's of the same request) and answered already is
   * enough, so one request waits for one round trip however many caches it reads.
   */
  heardSince(mark: number): Promise<void> {
    if (this.hearing && this.roundTrip && this.answered > mark) return Promise.resolve();
    return this.heard();
  }

  onHearingChange(listener: HearingListener): () => void {
    this.hearingListeners.add(listener);
    return () => this.hearingListeners.delete(listener);
  }

  async start(): Promise<void> {
    const client: unknown = (this.db as { $client?: unknown }).$client;
    if (client instanceof PGlite) {
      const unlistens = await Promise.all(
        [...this.channels].map(([channel, handler]) => client.listen(channel, handler)),
      );
      this.stop = async () => {
        await Promise.all(unlistens.map((unlisten) => unlisten()));
      };
      this.setHearing(true);
    } else if (client instanceof pg.Pool) {
      await this.listenOnPool(client);
      this.startHeartbeat();
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
    clearInterval(this.heartbeat);
    this.setHearing(false);
    this.listeners.clear();
    await this.stop?.();
  }

  /** A round trip each `HEARTBEAT_MS` in which nobody sent one (a failure reports itself). */
  private startHeartbeat(): void {
    let sent = this.sent;
    this.heartbeat = setInterval(() => {
      if (this.sent === sent && this.hearing) void this.heard().catch(() => undefined);
      sent = this.sent;
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private setHearing(hearing: boolean): void {
    if (this.hearing === hearing) return;
    this.hearing = hearing;
    for (const listener of this.hearingListeners) listener(hearing);
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
      // First of all: whatever is sent from now until the next LISTEN is missed.
      this.roundTrip = undefined;
      this.setHearing(false);
      this.log.warn({ err: error }, 'live updates: listening connection lost, reconnecting');
      connection.removeAllListeners('notification');
      void connection.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.reconnect(pool), 1000).unref();
    };
    connection.on('error', onError);
    const listen = [...this.channels.keys()].map((channel) => `LISTEN ${channel};`).join(' ');
    try {
      await connection.connect();
      await answeredWithin(connection.query(listen), HEARD_TIMEOUT_MS);
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
      if (n.payload) this.channels.get(n.channel)?.(n.payload);
    });
    // The round trip of `heard`: LISTEN again changes nothing, and keeps the connection's query
    // in pg_stat_activity what an operator looks for. Too late is lost: reconnect (onError), and
    // until then every caller looks up at once instead of waiting in turn.
    this.roundTrip = () =>
      answeredWithin(connection.query(listen), HEARD_TIMEOUT_MS).catch((error: unknown) => {
        onError(error instanceof Error ? error : new Error(String(error)));
        throw error;
      });
    this.setHearing(true);
    this.stop = async () => {
      this.roundTrip = undefined;
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
