import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { App } from '../http/types.ts';
import { openTestDatabase, testConfig } from '../test/harness.ts';
import { Readiness } from './readiness.ts';

/*
 * Readiness and liveness (docs/reliability.md "Database failures"): 503 naming the parts that are
 * down, in words of the product's own — a public answer never carries a driver's error text, which
 * can name hosts — while liveness stays 200.
 */
let app: App;
let close: () => Promise<void>;
const readiness = new Readiness();

beforeAll(async () => {
  const database = await openTestDatabase();
  ({ app } = await buildApp({ config: testConfig(), db: database.db, logger: false, readiness }));
  close = async () => {
    await app.close();
    await database.close();
  };
});
afterAll(() => close());

describe('the health checks', () => {
  it('answer ok while every part works', async () => {
    for (const url of ['/v1/health', '/v1/health/ready', '/v1/health/live'])
      expect((await app.inject({ url })).json()).toEqual({ status: 'ok' });
  });

  it('answer 503 naming the parts that are down, without their private reasons; liveness stays 200', async () => {
    readiness.set('database', 'connect ECONNREFUSED 10.20.30.40:5432');
    readiness.set('broker', 'ingest connection 1: not delivering (the delivery probe did not come back)');
    try {
      for (const url of ['/v1/health', '/v1/health/ready']) {
        const res = await app.inject({ url, headers: { 'accept-language': 'fr' } });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('errors.service_unavailable');
        expect(res.json().message).toMatch(/database, broker/);
        expect(res.json().details).toEqual([
          { path: 'database', message: 'unavailable' },
          { path: 'broker', message: 'not delivering' },
        ]);
        expect(res.body).not.toContain('10.20.30.40');
      }
      expect((await app.inject({ url: '/v1/health/live' })).statusCode).toBe(200);
    } finally {
      readiness.set('database');
      readiness.set('broker');
    }
    expect((await app.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });
});

describe('readiness against the database itself', () => {
  /** An app on a database of its own, which the test may break. */
  async function appOnOwnDatabase() {
    const database = await openTestDatabase();
    const built = await buildApp({ config: testConfig(), db: database.db, logger: false });
    return { app: built.app, database };
  }

  it('answers 503 "database unavailable" once the database is gone, while liveness stays 200', async () => {
    const { app, database } = await appOnOwnDatabase();
    try {
      expect((await app.inject({ url: '/v1/health/ready' })).statusCode).toBe(200);
      await database.close();
      const res = await app.inject({ url: '/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().details).toEqual([{ path: 'database', message: 'unavailable' }]);
      const live = await app.inject({ url: '/v1/health/live' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    } finally {
      // The live updates' listener cannot stop on a database already closed: expected here.
      await app.close().catch(() => undefined);
    }
  });

  it('answers 503 "migrations not applied" on a database that lacks the newest migration this build knows', async () => {
    const { app, database } = await appOnOwnDatabase();
    try {
      await database.db.execute(
        sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
      );
      const res = await app.inject({ url: '/v1/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().details).toEqual([{ path: 'migrations', message: 'not applied' }]);
      expect((await app.inject({ url: '/v1/health' })).statusCode).toBe(503);
      expect((await app.inject({ url: '/v1/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
