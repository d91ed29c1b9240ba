import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';

/** How many rows a table holds. */
async function rowsOf(database: Database, table: SQL): Promise<number> {
  const result = (await database.db.execute(sql`SELECT count(*) AS n FROM ${table}`)) as unknown as {
    rows: { n: number | string }[];
  };
  return Number(result.rows[0]!.n);
}

// In-memory PGlite databases all start from one migrated copy, whose bytes a process reads once
// (pglite-template.ts): what one database writes must never reach the next one opened from them.
describe('in-memory databases from the migrated copy', () => {
  it('start empty and migrated, whatever a database opened before them wrote', async () => {
    const first = await openDatabase({ dataDir: null });
    await first.db.execute(sql`INSERT INTO customers (name) VALUES ('Written before')`);
    expect(await rowsOf(first, sql`customers`)).toBe(1);
    const second = await openDatabase({ dataDir: null });
    await first.close();
    const third = await openDatabase({ dataDir: null });
    try {
      expect(await rowsOf(second, sql`customers`)).toBe(0);
      expect(await rowsOf(third, sql`customers`)).toBe(0);
      expect(await rowsOf(third, sql`drizzle.__drizzle_migrations`)).toBeGreaterThan(0);
    } finally {
      await second.close();
      await third.close();
    }
  });
});
