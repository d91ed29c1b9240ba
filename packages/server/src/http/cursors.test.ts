import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareRollouts, firmwareUpdates, flowboxes } from '../db/schema.ts';
import { insertImage } from '../firmware/testing.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { createFuzzWorld, pathId, type FuzzWorld } from './fuzz/world.ts';

/*
 * Keyset cursors handed back by a client (db/cursor.ts). For every list of docs/openapi.json that
 * answers a `next_cursor`, a real cursor is taken from the server, each of its fields is replaced in
 * turn by values no server ever wrote (dates PostgreSQL cannot read, control characters, lone
 * surrogates, integers past a column's range, other types), and the cursor is sent back: the answer
 * is the page, or a 400 on `cursor`, never a 5xx. A new paged list is covered as soon as it is in the
 * document; if this test cannot get a second page of it, it says so and the list needs seeding here.
 */

type Parameter = { name: string; in: string; schema: { enum?: string[] } };
type OpenApiOperation = {
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { schema?: { properties?: object } }> }>;
};
type PagedList = { path: string; parameters: Parameter[] };

const openapi = JSON.parse(
  readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8'),
) as {
  paths: Record<string, Record<string, OpenApiOperation>>;
};

/** Every GET whose answer carries `next_cursor`. */
const PAGED_LISTS: PagedList[] = Object.entries(openapi.paths).flatMap(([path, methods]) => {
  const op = methods.get;
  const properties = op?.responses['200']?.content?.['application/json']?.schema?.properties ?? {};
  return op && 'next_cursor' in properties ? [{ path, parameters: op.parameters ?? [] }] : [];
});

/** Query parameters a cursor is made for (another value makes another cursor): each value is tried. */
const CURSOR_SHAPING = ['sort', 'dir'];

/** Pages of the rollout lists are fixed (rollouts.service.ts): one row more than a page of each. */
const ROLLOUTS_PAGE = 50;
const DEVICES_PAGE = 100;

const LONG = 'x'.repeat(10_000);
/** What no server wrote into a cursor field, in every type JSON has. */
const HOSTILE_VALUES: unknown[] = [
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '+010000-01-01T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '2026-02-30T00:00:00.000Z',
  '2026-13-01T00:00:00.000Z',
  '2026-01-01',
  '2026-01-01T00:00:00+25:00',
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  'line\nbreak',
  '\ud800',
  'x\udc00y',
  LONG,
  '-'.repeat(36),
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  "'; SELECT 1; --",
  '%',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e300',
  '2147483648',
  0,
  -1,
  0.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  1e300,
  -1e300,
  Number.MIN_VALUE,
  null,
  true,
  false,
  [],
  [1, 'a'],
  {},
  { a: { b: { c: [] } } },
];

/** Raw cursors no codec wrote: not base64url, huge, empty, not JSON, old formats with bad dates. */
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64url');
const RAW_CURSORS = [
  '',
  '!!!!',
  '====',
  'a',
  'bm9wZQ',
  'eyJ',
  'e30=',
  '+/+/',
  LONG,
  b64(LONG),
  b64(Buffer.from([0xff, 0xfe, 0xfd])),
  b64('null'),
  b64('"text"'),
  b64('[]'),
  b64('{}'),
  b64('{"__proto__":{"at":1}}'),
  b64('+275760-09-13T00:00:00.000Z|00000000-0000-4000-8000-000000000000'),
  b64('-000001-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000'),
  b64('2026-01-01T00:00:00.000Z|------------------------------------'),
];

/** The codec of db/cursor.ts: a JSON object, base64url. */
const decode = (cursor: string): unknown => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encode = (value: unknown): string => b64(JSON.stringify(value));

/** The cursor with each of its fields replaced in turn, one missing, one more, and all of it replaced. */
function hostileCursors(cursor: string): string[] {
  const value = decode(cursor);
  expect(encode(value), 'the cursor is a base64url JSON value').toBe(cursor);
  const fields = value !== null && typeof value === 'object' ? Object.keys(value) : [];
  const withField = (key: string, hostile: unknown) =>
    Array.isArray(value)
      ? value.map((v, i) => (String(i) === key ? hostile : v))
      : { ...(value as object), [key]: hostile };
  return [
    ...fields.flatMap((key) => HOSTILE_VALUES.map((hostile) => encode(withField(key, hostile)))),
    ...fields.map((key) => {
      const without = { ...(value as Record<string, unknown>) };
      delete without[key];
      return encode(Array.isArray(value) ? value.filter((_, i) => String(i) !== key) : without);
    }),
    encode(Array.isArray(value) ? [...value, 'more'] : { ...(value as object), more: 1 }),
    ...HOSTILE_VALUES.map(encode),
  ];
}

let t: TestApp;
let world: FuzzWorld;
let rolloutId: string;
let webhookId: string;

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 86_400 });
  world = await createFuzzWorld(t);
  rolloutId = await seedRollouts();
  webhookId = await seedWebhookDeliveries();
});
afterAll(() => t?.close());

/** A webhook of customer A with two deliveries (two test events): a page of one, and a next. */
async function seedWebhookDeliveries(): Promise<string> {
  const webhooks = `/v1/customers/${world.own.customerId}/webhooks`;
  const created = await world.clients.provider.post(`${webhooks}/create`, {
    url: 'https://hooks.example.com/flowbox',
    events: ['alert.opened'],
    enabled: false,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: string }>().id;
  for (let i = 0; i < 2; i++)
    expect((await world.clients.provider.post(`${webhooks}/${id}/test`)).statusCode).toBe(202);
  return id;
}

/** Rollouts and rollout devices one past a page, which no world of the fuzzer makes. */
async function seedRollouts(): Promise<string> {
  const image = await insertImage(t.db, { version: '9.9.9' });
  const rollouts = await t.db
    .insert(firmwareRollouts)
    .values(
      Array.from({ length: ROLLOUTS_PAGE + 1 }, (_, i) => ({
        imageId: image.id,
        label: `Rollout ${i}`,
        models: ['one_inch_v1' as const],
        wavesPct: [100],
        startJitterS: 0,
        maxConcurrent: 10,
        failureThresholdPct: 10,
        duringOpeningHours: false,
        state: 'completed' as const,
        total: DEVICES_PAGE + 1,
      })),
    )
    .returning();
  const devices = await t.db
    .insert(flowboxes)
    .values(
      Array.from({ length: DEVICES_PAGE + 1 }, (_, i) => ({
        serial: `CURSOR-${String(i).padStart(3, '0')}`,
        zoneId: world.own.zoneId!,
        pairingState: 'ready' as const,
      })),
    )
    .returning();
  const now = t.clock.now();
  await t.db.insert(firmwareUpdates).values(
    devices.map((d) => ({
      flowboxId: d.id,
      imageId: image.id,
      rolloutId: rollouts[0]!.id,
      wave: 1,
      targetVersion: image.version,
      state: 'success' as const,
      origin: 'web' as const,
      stateChangedAt: now,
      finishedAt: now,
    })),
  );
  return rollouts[0]!.id;
}

/** The list's URLs: its path in customer A's tenant, a page of one row, each value of what shapes its cursor. */
function urlsOf(list: PagedList): string[] {
  const ids = { ...world.own, rolloutId, webhookId };
  const path = list.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = pathId(ids, name, list.path);
    if (!id) throw new Error(`no id for {${name}} of ${list.path}: name it in cursors.test.ts`);
    return id;
  });
  const query = list.parameters.some((p) => p.in === 'query' && p.name === 'limit') ? ['limit=1'] : [''];
  const shaped = list.parameters
    .filter((p) => p.in === 'query' && CURSOR_SHAPING.includes(p.name) && p.schema.enum)
    .reduce((queries, p) => queries.flatMap((q) => p.schema.enum!.map((v) => `${q}&${p.name}=${v}`)), query);
  return shaped.map((q) => `${path}?${q.replace(/^&/, '')}`);
}

describe('a cursor handed back altered', () => {
  it('finds the paged lists of the API', () => {
    expect(PAGED_LISTS.map((l) => l.path)).toEqual(
      expect.arrayContaining(['/v1/alerts/list', '/v1/fleet/list', '/v1/firmware/rollouts']),
    );
  });

  it.each(PAGED_LISTS.map((l) => [l.path, l] as const))(
    '%s answers its page or a 400 on cursor, never a 5xx',
    async (_, list) => {
      const failures: string[] = [];
      for (const url of urlsOf(list)) {
        const first = await world.clients.provider.get(url);
        expect(first.statusCode, `${url}: ${first.body}`).toBe(200);
        const cursor = first.json<{ next_cursor: string | null }>().next_cursor;
        expect(cursor, `${url} has no second page: seed more rows in cursors.test.ts`).toBeTypeOf('string');
        const withCursor = (sent: string) =>
          world.clients.provider.get(
            `${url}${url.endsWith('?') ? '' : '&'}cursor=${encodeURIComponent(sent)}`,
          );
        expect((await withCursor(cursor!)).statusCode, `${url}: its own cursor`).toBe(200);
        for (const sent of [...hostileCursors(cursor!), ...RAW_CURSORS]) {
          const res = await withCursor(sent);
          const refusedOnCursor =
            res.statusCode === 400 &&
            res.json<{ details?: { path: string }[] }>().details?.every((d) => d.path === 'cursor');
          if (res.statusCode !== 200 && !refusedOnCursor)
            failures.push(
              `${url} cursor ${clip(sent)} (${clip(safeDecode(sent))}) → ${res.statusCode} ${clip(res.body)}`,
            );
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

function safeDecode(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

const clip = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);
