import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { openTestDatabase, type TestDatabase } from '../test/harness.ts';
import { ensureAdmin } from './admin.ts';
import { seedDemo } from './demo-data.ts';

// Two instances started at once on an empty database (compose.yaml starts two): each checks, finds
// nothing, and writes. On PostgreSQL each here has its own pool, as two processes would; on PGlite
// both share the one database.
const silent = { info: () => undefined, warn: () => undefined };
let first: TestDatabase;
let second: Database | undefined;

beforeAll(async () => {
  first = await openTestDatabase();
  if (first.url) second = await openDatabase({ databaseUrl: first.url, dataDir: null });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const count = async (query: ReturnType<typeof sql>) =>
  Number(((await first.db.execute(query)) as unknown as { rows: { n: number | string }[] }).rows[0]!.n);

describe('seeding at start-up, by instances starting together', () => {
  it('creates the FLOWBOX_ADMIN_EMAIL provider manager once, and both instances start', async () => {
    const admin = { email: 'admin.race@test.io', password: 'correct-horse-1' };
    const dbs = [first.db, second?.db ?? first.db];
    await Promise.all(dbs.flatMap((db) => [ensureAdmin(db, admin, silent), ensureAdmin(db, admin, silent)]));
    expect(await count(sql`SELECT count(*) AS n FROM users WHERE email = ${admin.email}`)).toBe(1);
  });

  it('seeds the demo data once', async () => {
    const dbs = [first.db, second?.db ?? first.db];
    await Promise.all(dbs.flatMap((db) => [seedDemo(db, silent), seedDemo(db, silent)]));
    expect(await count(sql`SELECT count(*) AS n FROM customers WHERE name = 'Acme Water Services'`)).toBe(1);
    expect(await count(sql`SELECT count(*) AS n FROM users WHERE email LIKE '%@demo.flowbox.local'`)).toBe(3);
  });
});
