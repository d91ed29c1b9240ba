import fc from 'fast-check';
import {
  buildingBody,
  multipartFile,
  planBody,
  scheduleBody,
  TINY_PNG,
  zoneBody,
} from '../../test/harness.ts';
import {
  DATE_EDGES,
  edgeFor,
  INVALID_UTF8,
  STRING_EDGES,
  UUID_EDGES,
  validValueFor,
  valueFor,
  type JsonSchema,
  type Pools,
} from './schema-values.ts';
import { pathId, type FuzzWorld, type Role } from './world.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Parameter = { name: string; in: 'path' | 'query'; required?: boolean; schema: JsonSchema };
export type Operation = {
  method: Method;
  path: string;
  parameters: Parameter[];
  body?: { contentType: string; schema: JsonSchema };
};

/** Every operation of the OpenAPI document. */
export function operationsOf(openapi: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: object } }>>;
}): Operation[] {
  return Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      return {
        method: method.toUpperCase() as Method,
        path,
        parameters: op.parameters ?? [],
        ...(contentType ? { body: { contentType, schema: (media as { schema: JsonSchema }).schema } } : {}),
      };
    }),
  );
}

export type FuzzRequest = {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** A query value sent as written, not percent-encoded: broken escapes. */
type Raw = { raw: string };
const RAW_QUERY_EDGES: Raw[] = ['%', '%zz', '%ff%fe', '%00', '%E0%A4%A', '%ED%A0%80'].map((raw) => ({ raw }));

/** The `/v1/live/stream` route streams for as long as its caller is signed in. */
const STREAM = '/v1/live/stream';

/**
 * Requests for one operation as one role: path ids of the role's own tenant, of the other one,
 * or not ids at all; query values and bodies from their schemas and edges; broken bodies.
 * Multipart uploads get a few fixed bodies (a real image, bytes that are not one, no file, JSON),
 * and the live stream is only called without the role's token (with a token it would stream until
 * the test ends): its fuzzed tickets are never valid, so each call answers at once.
 */
export function requestsFor(op: Operation, role: Role, world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const token = role === 'anonymous' || op.path === STREAM ? undefined : world.clients[role].token;
  return fc
    .record({
      url: urlFor(op, world),
      payload: op.body ? bodyFor(op, world.pools) : fc.constant(undefined),
      authorization: token ? fc.constant(`Bearer ${token}`) : anonymousAuthorization,
      language: fc.constantFrom(undefined, undefined, 'en', 'fr', 'de', '*', 'fr-CH;q=0.9', 'x'.repeat(300)),
    })
    .map(({ url, payload, authorization, language }) => ({
      method: op.method,
      url,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(language ? { 'accept-language': language } : {}),
        ...(payload?.contentType ? { 'content-type': payload.contentType } : {}),
      },
      ...(payload?.bytes !== undefined ? { payload: payload.bytes } : {}),
    }));
}

const anonymousAuthorization = fc.constantFrom(
  undefined,
  'Bearer garbage',
  'Bearer ',
  `Bearer ${'x'.repeat(5000)}`,
  'Basic Zm9vOmJhcg==',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
);

function urlFor(op: Operation, world: FuzzWorld): fc.Arbitrary<string> {
  const inPath = op.parameters.filter((p) => p.in === 'path');
  const inQuery = op.parameters.filter((p) => p.in === 'query');
  const ids = (tenant: FuzzWorld['own']) =>
    fc.record(
      Object.fromEntries(
        inPath.map((p) => {
          const id = pathId(tenant, p.name, op.path);
          return [p.name, id ? fc.constant(id) : valueFor(p.schema, world.pools).map(String)];
        }),
      ),
    );
  const mixed = fc.record(
    Object.fromEntries(
      inPath.map((p) => {
        const own = pathId(world.own, p.name, op.path);
        const other = pathId(world.other, p.name, op.path);
        const choices = [
          ...(own ? [fc.constant(own)] : []),
          ...(other ? [fc.constant(other)] : []),
          fc.uuid({ version: 4 }),
          fc.constantFrom(...UUID_EDGES, ...STRING_EDGES),
          valueFor(p.schema, world.pools).map(String),
        ];
        return [p.name, fc.oneof(...choices)];
      }),
    ),
  );
  const path = fc.oneof(
    { weight: 6, arbitrary: ids(world.own) },
    { weight: 2, arbitrary: ids(world.other) },
    { weight: 2, arbitrary: mixed },
  );
  const query = queryFor(inQuery, world.pools);
  return fc.tuple(path, query).map(([ids, values]) => {
    const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeComponent(String(ids[name])));
    const pairs = inQuery.flatMap((p, i) => queryPairs(p.name, values[i]));
    return pairs.length ? `${url}?${pairs.join('&')}` : url;
  });
}

/** Tokens the server issued (a page cursor, a stream ticket): a generated one is never valid. */
const OPAQUE = new Set(['cursor', 'ticket']);

/**
 * Query values: all valid; all valid but one edge; a `from`/`to` pair both drawn from the date
 * edges (reversed, equal, past the span); or anything anywhere.
 */
function queryFor(inQuery: Parameter[], pools: Pools): fc.Arbitrary<unknown[]> {
  if (inQuery.length === 0) return fc.constant([]);
  const valid = fc.tuple(
    ...inQuery.map((p) =>
      p.required
        ? validValueFor(p.schema, pools)
        : OPAQUE.has(p.name)
          ? fc.constant(undefined)
          : fc.option(validValueFor(p.schema, pools), { nil: undefined }),
    ),
  );
  const edgeOf = (p: Parameter) =>
    fc.oneof({ weight: 3, arbitrary: edgeFor(p.schema) }, fc.constantFrom(...RAW_QUERY_EDGES));
  const oneEdge = fc
    .tuple(valid, fc.nat(inQuery.length - 1))
    .chain(([values, i]) => edgeOf(inQuery[i]!).map((edge) => values.map((v, j) => (j === i ? edge : v))));
  const from = inQuery.findIndex((p) => p.name === 'from');
  const to = inQuery.findIndex((p) => p.name === 'to');
  const range =
    from >= 0 && to >= 0
      ? fc
          .tuple(valid, fc.constantFrom(...DATE_EDGES), fc.constantFrom(...DATE_EDGES))
          .map(([values, a, b]) => values.map((v, j) => (j === from ? a : j === to ? b : v)))
      : undefined;
  const mixed = fc.tuple(
    ...inQuery.map((p) =>
      fc.oneof(
        { weight: p.required ? 0 : 2, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: valueFor(p.schema, pools) },
        { weight: 2, arbitrary: edgeOf(p) },
      ),
    ),
  );
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: oneEdge },
    { weight: range ? 2 : 0, arbitrary: range ?? valid },
    { weight: 2, arbitrary: mixed },
  );
}

function queryPairs(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (isRaw(value)) return [`${name}=${value.raw}`];
  if (Array.isArray(value)) return value.flatMap((v) => queryPairs(name, v));
  const text = value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return [`${name}=${encodeComponent(text)}`];
}

const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && 'raw' in value;

/** Percent-encoding that also writes what is not UTF-8: lone surrogates and the INVALID_UTF8 marker. */
function encodeComponent(text: string): string {
  return text
    .split(INVALID_UTF8)
    .map((part) =>
      Array.from(part, (ch) => {
        const code = ch.charCodeAt(0);
        return ch.length === 1 && code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(ch);
      }).join(''),
    )
    .join('%FF%FE');
}

type Payload = { contentType?: string; bytes?: string | Buffer };

/**
 * Bodies the API accepts (the harness's), by route: mutated one or two fields at a time they get
 * past the rules between fields a schema cannot state (opening hours in order, the first price
 * range at 0), so the mutated field reaches the service.
 */
const VALID_BODIES: [RegExp, () => Record<string, unknown>][] = [
  [/\/buildings\/(create|\{buildingId\}\/update)$/, buildingBody],
  [/\/zones\/create$/, zoneBody],
  [/\/pricing_plans\/(create|\{pricingPlanId\}\/update)$/, planBody],
  [/\/schedules\/(create|\{scheduleId\}\/update)$/, scheduleBody],
  [/\/water_points\/(create|\{waterPointId\}\/update)$/, () => ({ label: 'Tap', type: 'sink' })],
];

function bodyFor(op: Operation, pools: Pools): fc.Arbitrary<Payload> {
  const body = op.body!;
  if (body.contentType === 'multipart/form-data') return fc.constantFrom(...multipartBodies());
  const json = 'application/json';
  const valid = VALID_BODIES.find(([route]) => route.test(op.path))?.[1];
  const fields = Object.entries(body.schema.properties ?? {});
  const mutated = valid
    ? fc
        .array(fc.tuple(fc.constantFrom(...fields), fc.boolean()), { minLength: 1, maxLength: 2 })
        .chain((picks) =>
          fc.tuple(
            ...picks.map(([[name, schema], drop]) =>
              (drop ? fc.constant(undefined) : valueFor(schema, pools)).map((v) => [name, v] as const),
            ),
          ),
        )
        .map((changes) => {
          const value: Record<string, unknown> = valid();
          for (const [name, v] of changes) {
            if (v === undefined) delete value[name];
            else value[name] = v;
          }
          return { contentType: json, bytes: jsonBytes(value) };
        })
    : undefined;
  return fc.oneof(
    { weight: mutated ? 4 : 0, arbitrary: mutated ?? fc.constant({}) },
    {
      weight: 6,
      arbitrary: valueFor(body.schema, pools).map((v) => ({ contentType: json, bytes: jsonBytes(v) })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom<Payload>(
        {},
        { contentType: json },
        { contentType: json, bytes: '' },
        { contentType: json, bytes: '{"a":' },
        { contentType: json, bytes: 'null' },
        { contentType: json, bytes: '[]' },
        { contentType: json, bytes: '"text"' },
        { contentType: json, bytes: '42' },
        { contentType: json, bytes: '{"x": NaN}' },
        { contentType: json, bytes: '{"__proto__": {"polluted": true}}' },
        { contentType: json, bytes: `${'['.repeat(50_000)}${']'.repeat(50_000)}` },
        { contentType: json, bytes: `{"label":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}` },
        { contentType: 'text/plain', bytes: 'hello' },
        { contentType: json, bytes: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
      ),
    },
  );
}

/** JSON text, with the INVALID_UTF8 marker written as the raw bytes it stands for. */
function jsonBytes(value: unknown): string | Buffer {
  const text = JSON.stringify(value) ?? 'null';
  const marker = JSON.stringify(INVALID_UTF8).slice(1, -1);
  if (!text.includes(marker)) return text;
  const parts = text.split(marker).map((part) => Buffer.from(part));
  const bad = Buffer.from([0xff, 0xfe]);
  return Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [bad, part])));
}

function multipartBodies(): Payload[] {
  const asPayload = ({ payload, headers }: ReturnType<typeof multipartFile>): Payload => ({
    contentType: headers['content-type'],
    bytes: payload,
  });
  return [
    asPayload(multipartFile(TINY_PNG)),
    asPayload(multipartFile(Buffer.from('not an image at all'), 'fake.png', 'image/png')),
    asPayload(multipartFile(Buffer.alloc(0), 'empty.png', 'image/png')),
    asPayload(multipartFile(TINY_PNG, `${'n'.repeat(5000)}.png`, 'image/png')),
    asPayload(multipartFile(Buffer.from('hello'), 'notes.txt', 'text/plain')),
    { contentType: 'multipart/form-data', bytes: 'no boundary' },
    { contentType: 'multipart/form-data; boundary=xyz', bytes: '--xyz--\r\n' },
    { contentType: 'application/json', bytes: '{"file":"x"}' },
    {},
  ];
}
