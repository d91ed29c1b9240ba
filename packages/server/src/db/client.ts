import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { inSpan, type Tracing } from '../tracing/tracing.ts';
import { openMigratedPglite } from './pglite-template.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; driver: 'pglite' | 'postgres'; close: () => Promise<void> };

/** The migrations, applied by every open (test/harness.ts names its migrated template by them). */
export const migrationsFolder = join(import.meta.dirname, '../../drizzle');
/** Any fixed number: only one instance applies migrations at a time (DESIGN.md §7). */
const MIGRATION_LOCK = 727_001;

/** Connections of one instance's pool when DATABASE_POOL_SIZE is not set. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * How long a query waits for a free pooled connection before it fails. Without it an exhausted
 * pool makes every caller wait forever, ingest and the jobs included; with it the operation fails,
 * rolls back and is retried (MQTT redelivery, the job's next pass), and the error is in the log.
 */
const CONNECTION_TIMEOUT_MS = 15_000;
/** Idle pooled connections are closed after this long: a quiet instance gives its connections back. */
const IDLE_TIMEOUT_MS = 30_000;
// No idle_in_transaction_session_timeout: PostgreSQL ending a session that a transaction holds
// checked out is an 'error' event nobody listens to, which stops the process (seen in the suite).

export type OpenDatabaseOptions = {
  databaseUrl?: string;
  dataDir: string | null;
  /** PostgreSQL: the most connections this instance's pool opens (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Told when a pooled connection breaks, idle or in use (database restarted, connection killed). */
  onConnectionError?: (error: Error) => void;
  /** With tracing on, a span for each query sent inside a traced operation (docs/operations.md "Tracing"). */
  tracing?: Tracing;
};

/** PostgreSQL through DATABASE_URL, else embedded PGlite in dataDir (or in memory when dataDir is null). */
const CHECKED_OUT = Symbol('checked out, no query yet');
type TrackedClient = pg.PoolClient & { [CHECKED_OUT]?: boolean };

/**
 * drizzle-orm's `transaction()` checks a client out and sends BEGIN before its try/finally: when
 * BEGIN fails (the connection died a moment before: a failover, pg_terminate_backend), the client is
 * never released, and each such failure costs the pool a connection for good, until every query
 * waits for one that never comes and the instance hangs (and `pool.end()` with it). This pool gives
 * such a client back, as broken, when the first query of a checkout is a BEGIN that fails.
 */
export class ReleasingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      err: Error | undefined,
      client: pg.PoolClient | undefined,
      done: (release?: unknown) => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    // The callback form is pg-pool's own (pool.query), which releases on every path.
    if (callback) return super.connect(callback);
    return super.connect().then((client: TrackedClient) => {
      if (client[CHECKED_OUT] === undefined) guardFirstBegin(client);
      client[CHECKED_OUT] = true;
      return client;
    });
  }
}

function guardFirstBegin(client: TrackedClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const first = client[CHECKED_OUT] === true;
    client[CHECKED_OUT] = false;
    const result = query(...args);
    const config = args[0] as string | { text?: string } | undefined;
    const text = typeof config === 'string' ? config : config?.text;
    if (first && /^\s*begin\b/i.test(text ?? '') && result instanceof Promise)
      result.catch((error: unknown) =>
        client.release(error instanceof Error ? error : new Error(String(error))),
      );
    return result;
  }) as typeof client.query;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options.dataDir, options.tracing);
}

type QueryMethod = (...args: unknown[]) => unknown;

/**
 * Replaces `target[method]` (a driver's query) with one that sends the query inside a span: a client
 * span named by the statement's first word (SELECT, INSERT, BEGIN…), carrying the SQL text (drizzle
 * sends values as parameters, never in the text, and the parameters are not recorded). Only a query
 * sent within a traced operation (an HTTP request, a telemetry batch) gets one: the jobs' polling
 * queries, every second, would otherwise bury the traces that matter.
 */
function traceQueries(target: object, method: string, tracing: Tracing, driver: 'pglite' | 'postgres'): void {
  const original = (target as Record<string, QueryMethod>)[method]!.bind(target);
  Object.defineProperty(target, method, {
    configurable: true,
    writable: true,
    value: (...args: unknown[]) => {
      const config = args[0] as string | { text?: string } | undefined;
      const text = typeof config === 'string' ? config : config?.text;
      // The callback and stream forms (pg-pool's own inside a traced query, cursors) are left as they are.
      const passedThrough =
        typeof args.at(-1) === 'function' || typeof (config as { submit?: unknown })?.submit === 'function';
      if (tracing.current() === undefined || text === undefined || passedThrough) return original(...args);
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
      const attributes = {
        'db.system.name': 'postgresql',
        'db.operation.name': operation,
        'db.query.text': text,
        'flowbox.db.driver': driver,
      };
      return inSpan(tracing, operation, { kind: 'client', attributes }, async () => original(...args));
    },
  });
}

async function openPostgres(
  url: string,
  { poolSize = DEFAULT_POOL_SIZE, onConnectionError, tracing }: OpenDatabaseOptions,
): Promise<Database> {
  const pool = new ReleasingPool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
  });
  // A connection that breaks (PostgreSQL restarted or failed over, an operator's
  // pg_terminate_backend, a proxy going away) emits 'error' on its client: unheard, it stops the
  // process. The pool listens only while a client is idle; a client checked out (a transaction in
  // progress, a query on its way) has no listener of its own, so every client gets one for its
  // whole life, here. The query or transaction in progress fails as it would anyway (its caller
  // retries or leaves the device message unacknowledged), the broken client leaves the pool, and
  // the next query opens a fresh connection.
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError?.(error));
  });
  // The same error, seen by the pool on an idle client: already told through the listener above.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  } finally {
    client.release();
  }
  if (tracing) tracePool(pool, tracing);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, driver: 'postgres', close: () => pool.end() };
}

const TRACED = Symbol('queries traced');

/** The pool's own queries, and those of each client it lends (a transaction's). */
function tracePool(pool: pg.Pool, tracing: Tracing): void {
  traceQueries(pool, 'query', tracing, 'postgres');
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient & { [TRACED]?: true }>).then((client) => {
      if (!client[TRACED]) {
        traceQueries(client, 'query', tracing, 'postgres');
        client[TRACED] = true;
      }
      return client;
    });
  }) as pg.Pool['connect'];
}

/** PGlite's queries, and those of the transactions it runs (`tx`, a handle of its own). */
function tracePglite(client: PGlite, tracing: Tracing): void {
  traceQueries(client, 'query', tracing, 'pglite');
  traceQueries(client, 'exec', tracing, 'pglite');
  const transaction = client.transaction.bind(client);
  Object.defineProperty(client, 'transaction', {
    configurable: true,
    writable: true,
    value: (work: Parameters<PGlite['transaction']>[0]) =>
      transaction((tx) => {
        traceQueries(tx, 'query', tracing, 'pglite');
        traceQueries(tx, 'exec', tracing, 'pglite');
        return work(tx);
      }),
  });
}

async function openPglite(dataDir: string | null, tracing: Tracing | undefined): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await openMigratedPglite(migrationsFolder, (fresh) =>
      migratePglite(drizzlePglite(fresh, { schema }), { migrationsFolder }),
    );
  }
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder });
  await pgliteDb.execute(sql`SELECT 1`);
  if (tracing) tracePglite(client, tracing);
  return { db: pgliteDb as unknown as Db, driver: 'pglite', close: () => client.close() };
}
