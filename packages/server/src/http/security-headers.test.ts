import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { openTestDatabase, testConfig } from '../test/harness.ts';
import { DOCS_CSP, SWAGGER_LOGO_STYLE } from './csp.ts';
import type { App } from './types.ts';

const require = createRequire(import.meta.url);

let database: Database;
const apps: App[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.close();
});

async function appAt(publicUrl: string, rateLimitPerMinute?: number): Promise<App> {
  const { app } = await buildApp({
    config: testConfig({ publicUrl }),
    db: database.db,
    logger: false,
    ...(rateLimitPerMinute ? { rateLimitPerMinute } : {}),
  });
  apps.push(app);
  return app;
}

describe('security headers on every answer', () => {
  it('asks browsers to keep to HTTPS when the product is served over it, on API and error answers alike', async () => {
    const app = await appAt('https://flowbox.example.com');
    for (const url of ['/v1/health', '/v1/users/me', '/v1/no/such/route']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
  });

  it('sends no HSTS over plain HTTP, where a browser would ignore it', async () => {
    const app = await appAt('http://localhost:8080');
    const res = await app.inject({ method: 'GET', url: '/v1/health' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('serves the API docs (Swagger UI) with a CSP of their own: own scripts and styles, no inline ones (issue 30)', async () => {
    const app = await appAt('http://localhost:8080');
    for (const url of ['/v1/docs', '/v1/docs/', '/v1/docs/static/swagger-initializer.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("style-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain('unsafe-inline');
    }
    // Swagger UI's logo style, the one inline style the policy allows, by its hash: still its text.
    const hash = createHash('sha256').update(SWAGGER_LOGO_STYLE).digest('base64');
    expect(DOCS_CSP).toContain(`'sha256-${hash}'`);
    const preset = readFileSync(
      require.resolve('@fastify/swagger-ui/static/swagger-ui-standalone-preset.js'),
      'utf8',
    );
    expect(preset).toContain(`"style",null,"${SWAGGER_LOGO_STYLE}"`);
    // The API's own answers are JSON, with no page policy of the docs'.
    const api = await app.inject({ method: 'GET', url: '/v1/health' });
    expect(api.headers['content-security-policy']).toBeUndefined();
  });

  it('turns off the browser features the app does not use', async () => {
    const app = await appAt('http://localhost:8080');
    for (const url of ['/v1/health', '/v1/users/me']) {
      const policy = String((await app.inject({ method: 'GET', url })).headers['permissions-policy']);
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()'])
        expect(policy, url).toContain(feature);
    }
  });

  it('says when to come back on the per-address request limit too (Retry-After)', async () => {
    const app = await appAt('http://localhost:8080', 3);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await app.inject({ method: 'GET', url: '/v1/health' }));
    const limited = answers.at(-1)!;
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('errors.rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
