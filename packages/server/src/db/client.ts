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
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; driver: 'pglite' | 'postgres'; close: () => Promise<void> };

const migrationsFolder = join(import.meta.dirname, '../../drizzle');
/** Any fixed number: only one instance applies migrations at a time (DESIGN.md §7). */
const MIGRATION_LOCK = 727_001;

/** PostgreSQL through DATABASE_URL, else embedded PGlite in dataDir (or in memory when dataDir is null). */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /** Told when an idle pooled connection breaks (database restarted, connection killed). */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onConnectionError);
  return openPglite(options.dataDir);
}

async function openPostgres(url: string, onConnectionError?: (error: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that breaks (PostgreSQL restarted, or an operator ended it) is an 'error'
  // event on the pool: unheard, it would stop the process. The pool replaces it on next use.
  pool.on('error', (error) => onConnectionError?.(error));
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  } finally {
    client.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, driver: 'postgres', close: () => pool.end() };
}

async function openPglite(dataDir: string | null): Promise<Database> {
  let client: PGlite;
  if (dataDir) {
    const dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  } else {
    client = await PGlite.create();
  }
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder });
  await pgliteDb.execute(sql`SELECT 1`);
  return { db: pgliteDb as unknown as Db, driver: 'pglite', close: () => client.close() };
}
