import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { reading } from '../telemetry/testing.ts';
import { freePort } from '../test/harness.ts';

/*
 * Traces (docs/operations.md "Tracing"): with OTEL_EXPORTER_OTLP_ENDPOINT, the real server sends its
 * spans as OTLP/HTTP JSON to a collector, here a node:http server of the test's own that keeps what
 * is posted to /v1/traces. Without it, no OpenTelemetry SDK module is loaded at all and nothing is sent.
 */

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean };
type Attribute = { key: string; value: AnyValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Attribute[];
  status?: { code?: number };
};
type OtlpRequest = {
  resourceSpans: { resource: { attributes: Attribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
};

/** OTLP's SpanKind numbers. */
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/** A collector: keeps each OTLP/HTTP JSON export posted to /v1/traces. */
async function collector(): Promise<{ url: string; exports: OtlpRequest[]; close: () => Promise<void> }> {
  const exports: OtlpRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces')
        exports.push(JSON.parse(Buffer.concat(chunks).toString()) as OtlpRequest);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const spansOf = (exports: OtlpRequest[]) =>
  exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));

function attributes(attributeList: Attribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries(
    (attributeList ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue!),
    ]),
  );
}

const isRoot = (span: OtlpSpan) => !span.parentSpanId;
const childrenOf = (spans: OtlpSpan[], parent: OtlpSpan) =>
  spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

/**
 * A POST whose body arrives a moment after its headers, as over a slow link: Fastify then parses it
 * on socket events of their own, outside the async context the request's first hooks ran in.
 */
function postSlowly(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => done({ status: response.statusCode!, body: text }));
    });
    request.on('error', fail);
    request.flushHeaders();
    setTimeout(() => request.end(body), 100);
  });
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

/** A throw-away PostgreSQL database when FLOWBOX_TEST_PG names a server; else the server runs on PGlite. */
async function databaseUrl(): Promise<Record<string, string>> {
  const adminUrl = process.env.FLOWBOX_TEST_PG;
  if (!adminUrl) return {};
  const name = `fbx_trace_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  closers.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

describe('traces with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('span each request by its route with its queries as children, and each telemetry batch; flushed at close', async () => {
    const otlp = await collector();
    closers.push(otlp.close);
    const server = await startServer(
      loadConfig({
        DATA_DIR: mkdtempSync(join(tmpdir(), 'fbx-tracing-')),
        PORT: String(await freePort()),
        MQTT_PORT: String(await freePort()),
        DEMO: 'false',
        LOG_LEVEL: 'silent',
        FLOWBOX_ADMIN_EMAIL: 'tracer@example.com',
        FLOWBOX_ADMIN_PASSWORD: 'tracer-password-1',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
        ...(await databaseUrl()),
      }),
    );
    closers.push(() => server.close());
    const token = await postSlowly(
      `${server.url}/v1/users/token`,
      { 'x-request-id': 'trace-login-1' },
      JSON.stringify({ email: 'tracer@example.com', password: 'tracer-password-1' }),
    );
    expect(token.status).toBe(200);
    const { access_token } = JSON.parse(token.body) as { access_token: string };
    const me = await fetch(`${server.url}/v1/users/me`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(me.status).toBe(200);
    const meId = me.headers.get('x-request-id');
    const { id: userId } = (await me.json()) as { id: string };
    expect(await server.messaging.telemetry.submit('FB-NOT-PAIRED', reading(1, new Date()))).toBe(
      'unknown_device',
    );
    // Nothing is sent before the batch processor's 5 s: the close path flushes.
    expect(spansOf(otlp.exports).some((span) => span.name === 'telemetry.batch')).toBe(false);
    await server.close();
    closers.pop();

    expect(attributes(otlp.exports[0]!.resourceSpans[0]!.resource.attributes)).toMatchObject({
      'service.name': 'flowbox-manager',
      'deployment.environment': 'test',
    });
    const spans = spansOf(otlp.exports);
    const login = spans.find((span) => span.name === 'POST /v1/users/token')!;
    expect(login).toMatchObject({ kind: SERVER });
    expect(isRoot(login)).toBe(true);
    expect(attributes(login.attributes)).toEqual({
      'http.request.method': 'POST',
      'http.route': '/v1/users/token',
      'http.response.status_code': 200,
      'flowbox.request_id': 'trace-login-1',
    });
    // The handler runs after the body, parsed on socket events of their own: its queries still belong.
    const loginQueries = childrenOf(spans, login);
    expect(loginQueries.length).toBeGreaterThan(0);
    for (const query of loginQueries) {
      expect(query.kind).toBe(CLIENT);
      expect(attributes(query.attributes)).toMatchObject({
        'db.system.name': 'postgresql',
        'flowbox.db.driver': process.env.FLOWBOX_TEST_PG ? 'postgres' : 'pglite',
      });
    }
    const userLookup = loginQueries.find((q) =>
      /from "users"/.test(String(attributes(q.attributes)['db.query.text'])),
    );
    expect(userLookup).toMatchObject({ name: 'SELECT' });
    expect(attributes(userLookup!.attributes)['db.operation.name']).toBe('SELECT');

    const profile = spans.find((span) => span.name === 'GET /v1/users/me')!;
    expect(attributes(profile.attributes)).toMatchObject({
      'http.response.status_code': 200,
      'flowbox.request_id': meId,
      'user.id': userId,
    });
    // Authentication's session lookup (the first use of this session on this instance) is the
    // request's own child; /users/me then answers from the session's record (auth/session-cache.ts).
    expect(childrenOf(spans, profile).length).toBeGreaterThanOrEqual(1);
    expect(new Set([login.traceId, profile.traceId]).size).toBe(2);

    const batch = spans.find((span) => span.name === 'telemetry.batch')!;
    expect(batch).toMatchObject({ kind: CONSUMER });
    expect(isRoot(batch)).toBe(true);
    expect(attributes(batch.attributes)).toEqual({ 'messaging.batch.message_count': 1 });
    expect(childrenOf(spans, batch).map((q) => q.name)).toContain('SELECT');

    // Only traced work has query spans: the jobs' polling queries, every second, have none.
    const roots = new Set(spans.filter(isRoot).map((span) => span.spanId));
    const orphans = spans.filter(
      (span) => !isRoot(span) && !spans.some((p) => p.spanId === span.parentSpanId),
    );
    expect(orphans).toEqual([]);
    expect(spans.filter(isRoot).every((span) => span.kind === SERVER || span.kind === CONSUMER)).toBe(true);
    expect(roots.size).toBeGreaterThanOrEqual(3);
    // A whole server, started and stopped: slower than the suite's 30 s on a loaded machine.
  }, 120_000);
});

const ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * Records every module under @opentelemetry/ the process loads: ESM imports through a resolve hook,
 * CommonJS requires from the require cache at exit. Written into `file`.
 */
function moduleRecorder(file: string): string {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let file;
    export function initialize(data) { file = data.file; }
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (resolved.url.includes('/@opentelemetry/')) appendFileSync(file, resolved.url + '\\n');
      return resolved;
    }`;
  const entry = `
    import { appendFileSync } from 'node:fs';
    import { createRequire, register } from 'node:module';
    const file = ${JSON.stringify(file)};
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}), import.meta.url, { data: { file } });
    const cache = createRequire(${JSON.stringify(join(ROOT, 'package.json'))}).cache;
    process.on('exit', () => {
      const loaded = Object.keys(cache).filter((path) => path.includes('/@opentelemetry/'));
      appendFileSync(file, loaded.map((path) => 'file://' + path + '\\n').join(''));
    });`;
  return `data:text/javascript,${encodeURIComponent(entry)}`;
}

/** `npm start`'s main.ts in a process of its own: one refused login, then SIGTERM; the modules it loaded. */
async function runProduct(env: Record<string, string>): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fbx-tracing-off-'));
  const loads = join(dataDir, 'modules.txt');
  writeFileSync(loads, '');
  const port = await freePort();
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')),
  );
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--import',
      moduleRecorder(loads),
      'packages/server/src/main.ts',
    ],
    {
      cwd: ROOT,
      env: {
        ...inherited,
        DATA_DIR: dataDir,
        PORT: String(port),
        MQTT_PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DEMO: 'false',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  closers.push(async () => void child.kill('SIGKILL'));
  const deadline = Date.now() + 150_000;
  while (!output.includes('Flowbox Manager is running')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the server did not start:\n${output}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  const refused = await fetch(`http://127.0.0.1:${port}/v1/users/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' }),
  });
  expect(refused.status).toBe(401);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return [...new Set(readFileSync(loads, 'utf8').split('\n').filter(Boolean))];
}

// `npm start` on its embedded defaults, whatever the step's database: once, in the PGlite step.
describe.skipIf(process.env.FLOWBOX_TEST_PG)('traces without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('load no OpenTelemetry SDK module and send nothing; with it, the same run loads the SDK and exports', async () => {
    const otlp = await collector();
    closers.push(otlp.close);
    // prom-client requires @opentelemetry/api (a few kB of interfaces) for its exemplars, whatever the setting.
    const apiOnly = (url: string) => url.includes('/@opentelemetry/api/');

    const off = await runProduct({});
    // The recorder saw the process's requires (prom-client's), and nothing of the SDK.
    expect(off.some(apiOnly)).toBe(true);
    expect(off.filter((url) => !apiOnly(url))).toEqual([]);

    const on = await runProduct({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
    const sdk = on.filter((url) => !apiOnly(url)).map((url) => /@opentelemetry\/([^/]+)/.exec(url)![1]);
    expect(sdk).toEqual(expect.arrayContaining(['sdk-trace-base', 'exporter-trace-otlp-http', 'resources']));
    expect(spansOf(otlp.exports).map((span) => span.name)).toContain('POST /v1/users/token');
    // Only the run with the variable sent anything: the collector saw one process's spans.
    expect(
      new Set(
        spansOf(otlp.exports)
          .filter(isRoot)
          .map((span) => span.name),
      ),
    ).toEqual(new Set(['POST /v1/users/token']));
  }, 300_000);
});
