import pg from 'pg';
import { buildApp, type Services } from '../app.ts';
import { openDatabase, type Database } from '../db/client.ts';
import type { App } from '../http/types.ts';
import { testConfig, type TestApp } from './harness.ts';

export type SecondInstance = { app: App; services: Services; close: () => Promise<void> };

/**
 * Another app on the same database and clock: on PostgreSQL through its own connection pool and
 * listening connection (as another process would), on PGlite through the same in-process database.
 * On PostgreSQL `options.databaseUrl` may name another way to the same database (a proxy).
 */
export async function secondInstance(
  first: TestApp,
  options: { databaseUrl?: string } = {},
): Promise<SecondInstance> {
  const client: unknown = (first.db as { $client?: unknown }).$client;
  let database: Database | undefined;
  if (client instanceof pg.Pool)
    database = await openDatabase({
      databaseUrl: options.databaseUrl ?? client.options.connectionString,
      dataDir: null,
      onConnectionError: () => undefined,
    });
  const { app, services } = await buildApp({
    config: testConfig(),
    db: database?.db ?? first.db,
    now: first.clock.now,
    logger: false,
  });
  await app.ready();
  return {
    app,
    services,
    close: async () => {
      await app.close();
      await database?.close();
    },
  };
}
