import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openTestDatabase, testConfig } from '../test/harness.ts';
import type { Database } from '../db/client.ts';
import type { App } from './types.ts';

let app: App;
let database: Database;

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'fbx-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Flowbox Manager</title>');
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets/app.js'), 'console.log(1)');
  database = await openTestDatabase();
  ({ app } = await buildApp({
    config: testConfig({ webDist }),
    db: database.db,
    logger: false,
  }));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('serving the web app', () => {
  it('answers index.html for client-side routes, with a content security policy', async () => {
    for (const url of ['/', '/customers', '/customers/abc/sites/add', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>Flowbox Manager</title>');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves built assets as files', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never answers the web app for an unknown API path', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/nothing-here',
      headers: { 'accept-language': 'fr' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'errors.not_found',
      message: "Cette ressource n'existe pas ou ne vous est pas accessible",
    });
  });
});

describe('health check', () => {
  it('answers ok without signing in when the database answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});
