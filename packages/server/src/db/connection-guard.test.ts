import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './client.ts';
import { openTestDatabase } from '../test/harness.ts';
import { NestedConnectionError, type ConnectionGuard } from './connection-guard.ts';

/*
 * The test databases' connection guard (docs/decisions.md "One connection per operation"): a
 * transaction that waits for another connection of its own pool is the shape that froze two app
 * instances sharing one pool; ten at once freeze an instance. The guard runs on PGlite and on
 * PostgreSQL (FLOWBOX_TEST_PG).
 */

let database: Database;
let guard: ConnectionGuard;

beforeEach(async () => {
  ({ guard, ...database } = await openTestDatabase());
});
afterEach(async () => {
  // The offences here were made on purpose: the database closes without reporting them.
  guard.offences.length = 0;
  await database.close();
});

const select1 = () => database.db.execute(sql`SELECT 1`);

/** The NestedConnectionError an operation failed with, through drizzle's wrapping. */
async function nestedErrorOf(operation: Promise<unknown>): Promise<NestedConnectionError | undefined> {
  const error: unknown = await operation.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof NestedConnectionError) return error;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof NestedConnectionError ? cause : undefined;
}

describe('the connection guard', () => {
  it('lets a transaction use its tx, and the database be used before and after it', async () => {
    await select1();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await tx.transaction((inner) => inner.execute(sql`SELECT 2`));
    });
    await Promise.all([select1(), database.db.transaction((tx) => tx.execute(sql`SELECT 3`))]);
    expect(guard.offences).toEqual([]);
  });

  it('refuses a query sent through the database while a transaction of the same operation is open', async () => {
    const error = await nestedErrorOf(database.db.transaction(() => select1()));
    expect(error?.message).toContain('SELECT 1');
    expect(guard.offences).toHaveLength(1);
    expect(() => guard.assertNone()).toThrow('1 nested database connection(s)');
  });

  it('refuses a transaction begun inside another (a hook or job opening its own)', async () => {
    const error = await nestedErrorOf(
      database.db.transaction(() => database.db.transaction((tx) => tx.execute(sql`SELECT 1`))),
    );
    expect(error).toBeInstanceOf(NestedConnectionError);
    expect(error?.heldSince).toContain('connection-guard.test.ts');
  });

  it('keeps the offence when the operation swallows the error', async () => {
    await database.db.transaction(async () => {
      await select1().catch(() => undefined);
    });
    expect(guard.offences).toHaveLength(1);
  });

  it('does not blame work that carries on after the commit', async () => {
    let later: Promise<unknown> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(select1);
    });
    await later;
    expect(guard.offences).toEqual([]);
  });
});
