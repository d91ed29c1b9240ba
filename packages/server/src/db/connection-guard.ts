import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './client.ts';

/**
 * A second connection asked for while the same logical operation holds a transaction open: the
 * transaction waits for a connection from the pool it is itself part of. Ten of them at once
 * exhaust a pool of ten and every later query waits forever (docs/decisions.md "One connection
 * per operation").
 */
export class NestedConnectionError extends Error {
  constructor(
    readonly acquiredAt: string,
    readonly heldSince: string,
  ) {
    super(
      'a database connection was taken while this operation holds a transaction open: pass its `tx` ' +
        `down, or do the work after the commit\n--- taken at:\n${acquiredAt}\n--- transaction begun at:\n${heldSince}`,
    );
    this.name = 'NestedConnectionError';
  }
}

type Held = { open: boolean; since: string };

/**
 * Watches one database for nested connections (tests only: it costs an AsyncLocalStorage hop per
 * transaction). Every `db.transaction` marks its callback's async context as holding a connection;
 * any query or transaction then sent through the pool (or PGlite's single connection) from that
 * context, instead of through `tx`, throws a NestedConnectionError and is kept in `offences`, so
 * that an error swallowed on the way (a job's catch, a listener's log) still fails the test.
 */
export class ConnectionGuard {
  readonly offences: NestedConnectionError[] = [];
  private readonly held = new AsyncLocalStorage<Held>();

  constructor(db: Db) {
    this.wrapTransactions(db);
    const client: unknown = (db as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) this.wrapPool(client);
    else if (client instanceof PGlite) this.wrapPglite(client);
    else throw new Error('the connection guard needs a PGlite or node-postgres database');
  }

  /** Throws one error listing every nested connection seen so far. */
  assertNone(): void {
    if (this.offences.length === 0) return;
    const listed = this.offences.map((e, i) => `#${i + 1} ${e.message}`).join('\n\n');
    throw new Error(`${this.offences.length} nested database connection(s):\n\n${listed}`);
  }

  private check(query?: unknown): void {
    const held = this.held.getStore();
    if (!held?.open) return;
    // A query's own stack rarely reaches the caller (drizzle runs it from a `then`): name its SQL.
    const text = typeof query === 'string' ? query : (query as { text?: unknown } | undefined)?.text;
    const where = typeof text === 'string' ? `    query: ${text.slice(0, 300)}\n${stackHere()}` : stackHere();
    const error = new NestedConnectionError(where, held.since);
    this.offences.push(error);
    throw error;
  }

  private wrapTransactions(db: Db): void {
    const transaction = db.transaction.bind(db);
    db.transaction = ((run, config) => {
      const since = stackHere();
      return transaction(async (tx) => {
        const held: Held = { open: true, since };
        try {
          // Awaited inside the context: a callback may hand back a lazy drizzle query.
          return await this.held.run(held, async () => await run(tx));
        } finally {
          held.open = false;
        }
      }, config);
    }) as Db['transaction'];
  }

  private wrapPool(pool: pg.Pool): void {
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.connect = ((...args: unknown[]) => {
      this.check();
      return connect(...args);
    }) as pg.Pool['connect'];
    pool.query = ((...args: unknown[]) => {
      this.check(args[0]);
      return query(...args);
    }) as pg.Pool['query'];
  }

  private wrapPglite(client: PGlite): void {
    // PGlite has one connection: outside `tx`, a query waits for the open transaction to end.
    for (const method of ['query', 'exec', 'transaction'] as const) {
      const original = (client[method] as (...args: unknown[]) => Promise<unknown>).bind(client);
      Object.defineProperty(client, method, {
        configurable: true,
        value: (...args: unknown[]) => {
          this.check(method === 'transaction' ? undefined : args[0]);
          return original(...args);
        },
      });
    }
  }
}

/** The application's frames of the current stack (async ones included), deep enough to reach it. */
function stackHere(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack
    .split('\n')
    .slice(1)
    .filter((line) => !line.includes('node_modules') && !line.includes('connection-guard.ts'))
    .join('\n');
}
