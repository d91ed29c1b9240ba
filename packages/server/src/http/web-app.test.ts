import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openTestDatabase, testConfig } from '../test/harness.ts';
import type { Database } from '../db/client.ts';
import type { App } from './types.ts';

let app: App;
let database: Database;
let webDist: string;
const BIG = `export const names = [${Array.from({ length: 500 }, (_, i) => `'zone ${i}'`).join(', ')}];`;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'fbx-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Flowbox Manager</title>');
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets/app.js'), 'console.log(1)');
  // What the build's precompress step writes beside a large file (packages/web/precompress.ts).
  writeFileSync(join(webDist, 'assets/big.js'), BIG);
  writeFileSync(join(webDist, 'assets/big.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(webDist, 'assets/big.js.gz'), gzipSync(BIG));
  // The installable app's files (packages/web/public, docs/push.md "The web app").
  writeFileSync(join(webDist, 'sw.js'), 'self.addEventListener("push", () => {});');
  writeFileSync(join(webDist, 'manifest.webmanifest'), '{"name":"Flowbox Manager"}');
  writeFileSync(join(webDist, 'offline.html'), '<!doctype html><title>Offline</title>');
  writeFileSync(join(webDist, 'sw.js.br'), brotliCompressSync('self.addEventListener("push", () => {});'));
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
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>Flowbox Manager</title>');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('allows no inline style or script: the app and its maps set styles from script only (issue 30)', async () => {
    const csp = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('serves built assets as files, cached for good since their names are content hashes', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await app.inject({ method: 'GET', url: '/customers' });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('serves the service worker at the root and the manifest with its type, both checked anew on each visit', async () => {
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const compressed = await app.inject({
      method: 'GET',
      url: '/sw.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toBe('no-cache');
    const offline = await app.inject({ method: 'GET', url: '/offline.html' });
    expect(offline.headers['content-security-policy']).toContain("script-src 'self'");
    const csp = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it('serves a build made while it runs, and answers 404 for a missing asset', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/next.js' })).statusCode).toBe(404);
    writeFileSync(join(webDist, 'assets/next.js'), 'console.log(2)');
    const res = await app.inject({ method: 'GET', url: '/assets/next.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(2)');
  });

  it('sends the compressed copy a browser accepts, brotli first, and says the answer varies by it', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/big.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);
    expect(br.rawPayload.length).toBeLessThan(BIG.length / 3);
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/big.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG);
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/big.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('answers HEAD for every page and file it serves, without a body', async () => {
    for (const url of ['/', '/login', '/customers/abc/sites/add', '/assets/app.js']) {
      const res = await app.inject({ method: 'HEAD', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe('');
    }
    expect((await app.inject({ method: 'HEAD', url: '/assets/missing.js' })).statusCode).toBe(404);
  });

  it('refuses paths that climb out of the build', async () => {
    for (const url of ['/assets/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body).not.toContain('root:');
    }
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
