import fc from 'fast-check';
import { DATE_MAX, DATE_MIN } from '@flowbox/shared';

/** The part of JSON Schema that docs/openapi.json uses for parameters and bodies. */
export type JsonSchema = {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
  format?: string;
  pattern?: string;
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/**
 * Stands for bytes that are not UTF-8 (0xFF 0xFE): a JavaScript string cannot hold them, so the
 * request encoder (requests.ts) swaps this marker for the raw bytes in a body, or for `%FF%FE` in a URL.
 */
export const INVALID_UTF8 = '\u0001invalid-utf8\u0001';

/** Dates at and past the supported span (docs/reliability.md), impossible days and wrong shapes. */
export const DATE_EDGES = [
  '1999-12-31',
  DATE_MIN,
  DATE_MAX,
  '2100-01-01',
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '+010000-01-01',
  '-000001-01-01',
  '2026-02-31',
  '2026-02-29',
  '2024-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-1-1',
  '20260101',
  '2026-01-01T00:00:00Z',
  '',
];

export const STRING_EDGES = [
  '',
  ' ',
  'x'.repeat(5000),
  '\uD800',
  'a\uDC00b',
  '\u0000',
  'nul\u0000inside',
  INVALID_UTF8,
  '😀'.repeat(50),
  '\u202Eevil',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%',
  'NaN',
  'null',
  'undefined',
  '__proto__',
];

export const NUMBER_EDGES = [
  0,
  -0,
  -1,
  1.5,
  -0.5,
  1e-9,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
];

/** What a query string can carry beyond the values above: NaN-ish and odd numerals. */
export const NUMERAL_EDGES = ['NaN', 'Infinity', '-Infinity', '1e400', '0x10', ' 1 ', '1_000', '--1'];

export const UUID_EDGES = [
  'not-a-uuid',
  '1',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '00000000-0000-4000-8000-000000000000',
  '00000000-0000-4000-8000-0000000000001',
  'zzzzzzzz-zzzz-4zzz-8zzz-zzzzzzzzzzzz',
];

const WRONG_TYPES: unknown[] = [null, true, false, 0, 1, -1, 'text', [], {}, [1, 'a'], { a: 1 }];

/**
 * Values the server accepts for fields the document leaves as plain strings (a country code, a
 * time zone name): without them nearly every building, zone and plan body stops at validation.
 */
const FIELD_VALUES: Record<string, string[]> = {
  country: ['FR', 'US', 'CH', 'GB', 'NZ'],
  regions: ['FR', 'US', 'CH', 'GB', 'NZ'],
  timezone: [
    'Europe/Paris',
    'America/New_York',
    'Pacific/Auckland',
    'Asia/Kolkata',
    'Pacific/Chatham',
    'UTC',
  ],
};

/** The property's schema with FIELD_VALUES as its enum (of its items, for an array); an email as one. */
function withFieldValues(name: string, schema: JsonSchema): JsonSchema {
  if (name === 'email' && schema.type === 'string') return { ...schema, format: 'email' };
  const values = FIELD_VALUES[name];
  if (!values) return schema;
  if (schema.type === 'array' && schema.items?.type === 'string')
    return { ...schema, items: { ...schema.items, enum: values } };
  return schema.type === 'string' ? { ...schema, enum: values } : schema;
}

/** What the generators may pick from beyond the schema: ids of the world the server holds. */
export type Pools = { ids: readonly string[]; emails: readonly string[] };

const DAY_MS = 86_400_000;
const SPAN = { min: Date.parse(DATE_MIN), max: Date.parse(DATE_MAX) };

/** A real date in the span, most often within a few years of 2026 where the data is. */
const validDate = fc
  .oneof(
    fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2028, 0, 1) }),
    fc.integer({ min: SPAN.min, max: SPAN.max }),
  )
  .map((ms) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10));

/**
 * Values for a schema: a third of them valid all the way down (so calls get past validation into
 * the services), the others valid with edges and wrong types mixed in at every depth.
 */
export function valueFor(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(validFor(schema, pools, false), validFor(schema, pools, false), mixedFor(schema, pools));
}

function mixedFor(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: validFor(schema, pools, true) },
    { weight: 1, arbitrary: edgeFor(schema) },
  );
}

/** A value the schema accepts all the way down, as far as it can say (cross-field rules are left to chance). */
export function validValueFor(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  return validFor(schema, pools, false);
}

/** With `edges`, its items and properties may be edges. */
function validFor(schema: JsonSchema, pools: Pools, edges: boolean): fc.Arbitrary<unknown> {
  const inner = (s: JsonSchema) => (edges ? mixedFor(s, pools) : validFor(s, pools, false));
  const options = schema.anyOf ?? schema.oneOf;
  let value: fc.Arbitrary<unknown>;
  if (options) value = fc.oneof(...options.map((s) => validFor(s, pools, edges)));
  else if (schema.enum) value = fc.constantFrom(...schema.enum);
  else if (schema.type === 'string') value = validString(schema, pools);
  else if (schema.type === 'integer' || schema.type === 'number') value = validNumber(schema);
  else if (schema.type === 'boolean') value = fc.boolean();
  else if (schema.type === 'array')
    value = fc.array(inner(schema.items ?? {}), {
      minLength: schema.minItems ?? 0,
      maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
    });
  else if (schema.type === 'object' || schema.properties) value = validObject(schema, inner);
  else value = fc.constantFrom(...WRONG_TYPES);
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: value }, fc.constant(null)) : value;
}

function validString(schema: JsonSchema, pools: Pools): fc.Arbitrary<unknown> {
  if (schema.format === 'date') return validDate;
  if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...pools.ids), fc.uuid({ version: 4 }));
  if (schema.format === 'email')
    return fc.oneof(
      fc.constantFrom(...pools.emails),
      fc.stringMatching(/^[a-z][a-z0-9.]{0,20}@[a-z]{1,10}\.(io|fr|com)$/),
    );
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 40, Math.max(schema.minLength ?? 0, 40)),
  });
}

function validNumber(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  if (schema.type === 'integer') return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Required properties always, optional ones half the time. */
function validObject(
  schema: JsonSchema,
  inner: (s: JsonSchema) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([k, s]) => [k, inner(withFieldValues(k, s))]),
  );
  const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
  const extra = schema.additionalProperties;
  if (typeof extra !== 'object') return record;
  return fc
    .tuple(record, fc.dictionary(fc.string({ maxLength: 20 }), inner(extra), { maxKeys: 3 }))
    .map(([known, more]) => ({ ...more, ...known }));
}

/**
 * A value the schema refuses, or sits on its edge: mostly the edges of its type (dates past the
 * span, a length past the maximum), else a wrong type or an odd string.
 */
export function edgeFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const own: unknown[] = [];
  if (schema.enum)
    own.push('unknown_value', String(schema.enum[0]).toUpperCase(), `${String(schema.enum[0])} `);
  if (schema.type === 'string') {
    if (schema.format === 'date') own.push(...DATE_EDGES);
    else if (schema.format === 'uuid') own.push(...UUID_EDGES);
    else own.push(...STRING_EDGES);
    if (schema.maxLength !== undefined) own.push('y'.repeat(schema.maxLength + 1));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    own.push(...NUMBER_EDGES, ...NUMERAL_EDGES);
    if (schema.minimum !== undefined) own.push(schema.minimum - 1, schema.minimum - 0.5);
    if (schema.maximum !== undefined) own.push(schema.maximum + 1, schema.maximum + 0.5);
  }
  if (schema.type === 'array') own.push(new Array((schema.maxItems ?? 50) + 1).fill('a'), [null]);
  if (schema.type === 'object' || schema.properties) {
    const required = schema.required ?? [];
    own.push({ unknown_field: 1 }, Object.fromEntries(required.map((k) => [k, null])));
  }
  const other = fc.constantFrom(...WRONG_TYPES, ...STRING_EDGES);
  if (own.length === 0) return other;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: other });
}
