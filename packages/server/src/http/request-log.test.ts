import { Writable } from 'node:stream';
import { ROLES } from '@flowbox/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { createUser, openTestDatabase, PASSWORD, testConfig } from '../test/harness.ts';
import type { App } from './types.ts';

/*
 * Request logs (docs/operations.md "Logs"): one line per request at info, with its id, the user,
 * the route pattern, the status and the time taken; health checks and scrapes at debug; never a
 * password, a token, a cookie or a query.
 */
type Line = Record<string, unknown> & { level: number; msg: string };

let database: Database;
let userId: string;
const apps: App[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  userId = (await createUser(database.db, { email: 'logged@test.io', role: ROLES.flovea_manager })).id;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.close();
});

/** An app logging at `level` into an array the test reads. */
async function loggedApp(level: 'info' | 'debug'): Promise<{ app: App; lines: Line[]; text: () => string }> {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw.push(chunk.toString());
      done();
    },
  });
  const { app } = await buildApp({
    config: testConfig({ logLevel: level, metricsToken: 'metrics-token-0123456789' }),
    db: database.db,
    logger: { level, stream },
  });
  apps.push(app);
  const lines = () =>
    raw
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
  return {
    app,
    get lines() {
      return lines();
    },
    text: () => raw.join(''),
  };
}

const requestLines = (lines: Line[]) => lines.filter((line) => line.msg === 'request');

describe('request logs', () => {
  it('write one info line per request: id, user, route pattern, status, duration; no secret at all', async () => {
    const logged = await loggedApp('info');
    const { app } = logged;
    const wrong = await app.inject({
      method: 'POST',
      url: '/v1/users/token',
      payload: { email: 'logged@test.io', password: 'wrong-password-77' },
    });
    expect(wrong.statusCode).toBe(401);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/v1/users/token',
      payload: { email: 'logged@test.io', password: PASSWORD },
    });
    const { access_token, refresh_token } = signedIn.json<{ access_token: string; refresh_token: string }>();
    const me = await app.inject({
      url: '/v1/users/me?secret=query-secret-123',
      headers: { authorization: `Bearer ${access_token}`, cookie: 'session=cookie-secret-456' },
    });
    expect(me.statusCode).toBe(200);

    const lines = requestLines(logged.lines);
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => [line.level, line.method, line.route, line.status])).toEqual([
      [30, 'POST', '/v1/users/token', 401],
      [30, 'POST', '/v1/users/token', 200],
      [30, 'GET', '/v1/users/me', 200],
    ]);
    for (const line of lines) {
      expect(typeof line.reqId).toBe('string');
      expect(typeof line.ms).toBe('number');
    }
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(3);
    expect(lines[2]!.userId).toBe(userId);
    expect(lines[0]!.userId).toBeUndefined();
    const text = logged.text();
    for (const secret of [
      PASSWORD,
      'wrong-password-77',
      access_token,
      refresh_token,
      'query-secret-123',
      'cookie-secret-456',
    ])
      expect(text).not.toContain(secret);
  });

  it('log health checks and metrics scrapes only at debug', async () => {
    const atInfo = await loggedApp('info');
    const bearer = { authorization: 'Bearer metrics-token-0123456789' };
    for (const url of ['/v1/health', '/v1/health/live', '/v1/health/ready'])
      expect((await atInfo.app.inject({ url })).statusCode).toBe(200);
    expect((await atInfo.app.inject({ url: '/metrics', headers: bearer })).statusCode).toBe(200);
    expect(requestLines(atInfo.lines)).toEqual([]);

    const atDebug = await loggedApp('debug');
    await atDebug.app.inject({ url: '/v1/health/ready' });
    await atDebug.app.inject({ url: '/metrics', headers: bearer });
    expect(requestLines(atDebug.lines).map((line) => [line.level, line.route, line.status])).toEqual([
      [20, '/v1/health/ready', 200],
      [20, '/metrics', 200],
    ]);
    expect(atDebug.text()).not.toContain('metrics-token-0123456789');
  });
});

describe('request ids', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("keep a client's or proxy's safe X-Request-Id: echoed in the answer and written in the request line", async () => {
    const logged = await loggedApp('info');
    const given = 'edge-7f3a.b_9-01';
    const res = await logged.app.inject({ url: '/v1/users/me', headers: { 'x-request-id': given } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe(given);
    expect(requestLines(logged.lines).map((line) => [line.reqId, line.status])).toEqual([[given, 401]]);
  });

  it('give a request without one an id of its own, different each time, on answers of every kind', async () => {
    const logged = await loggedApp('info');
    const answers = [
      await logged.app.inject({ url: '/v1/health/live' }),
      await logged.app.inject({ url: '/v1/no-such-route' }),
      await logged.app.inject({ method: 'POST', url: '/v1/users/token', payload: { email: 1 } }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 404, 400]);
    const ids = answers.map((res) => String(res.headers['x-request-id']));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
    expect(requestLines(logged.lines).map((line) => line.reqId)).toEqual(ids.slice(1));
  });

  it('replace an id that is too long or holds other characters, so it cannot forge a log line', async () => {
    const logged = await loggedApp('info');
    const refused = ['a'.repeat(65), 'two words', 'id"quoted', 'line%0Abreak', 'é-accent', 'id/slash'];
    for (const given of refused) {
      const res = await logged.app.inject({ url: '/v1/users/me', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    const accepted = await logged.app.inject({
      url: '/v1/users/me',
      headers: { 'x-request-id': 'a'.repeat(64) },
    });
    expect(accepted.headers['x-request-id']).toBe('a'.repeat(64));
    const ids = requestLines(logged.lines).map((line) => String(line.reqId));
    expect(ids.slice(0, refused.length).every((id) => UUID.test(id))).toBe(true);
    for (const given of refused) expect(logged.text()).not.toContain(given);
  });
});
