import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';

// In-memory PGlite databases all start from one migrated copy, whose bytes a process reads once
// (pglite-template.ts): what one database writes must never reach the next one opened from them.
describe('in-memory databases from the migrated copy', () => {
  it('start empty and migrated, whatever a database opened before them wrote', async () => {
    const first = await openDatabase({ dataDir: null });
    await first.db.execute(sql`INSERT INTO customers (name) VALUES ('Written before')`);
    const count = async (database: typeof first) =>
      Number((await database.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM customers`)).rows[0]!.n);
    expect(await count(first)).toBe(1);
    const second = await openDatabase({ dataDir: null });
    await first.close();
    const third = await openDatabase({ dataDir: null });
    try {
      expect(await count(second)).toBe(0);
      expect(await count(third)).toBe(0);
      const migrations = await third.db.execute<{ n: string }>(
        sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`,
      );
      expect(Number(migrations.rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      await second.close();
      await third.close();
    }
  });
});
