import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { METER_INDEX_MAX_L, TelemetrySchema } from './messages.ts';
import { checkTelemetry } from './telemetry-check.ts';

/** What the contract says: the parsed reading, or undefined when the schema refuses it. */
const bySchema = (value: unknown) => {
  const result = TelemetrySchema.safeParse(value);
  return result.success ? result.data : undefined;
};

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Values around every bound of the schema, and values of the wrong kind. */
const edgeNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  1e-9,
  -1e-9,
  59,
  60,
  61,
  3599,
  3600,
  3601,
  1500,
  1500.0001,
  -40,
  -40.0001,
  125,
  125.0001,
  100,
  100.0001,
  MAX_SAFE,
  MAX_SAFE + 1,
  MAX_SAFE + 2,
  -MAX_SAFE,
  1e300,
  Infinity,
  -Infinity,
  NaN,
);
const anyNumber = fc.oneof(edgeNumber, fc.double(), fc.integer({ min: -10, max: 5000 }));
const wrongKind = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.string({ maxLength: 5 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant('1'),
);
const timestamp = fc.oneof(
  fc.integer({ min: -62_000_000_000_000, max: 250_000_000_000_000 }).map((ms) => new Date(ms).toISOString()),
  fc.constantFrom(
    '2026-01-05T10:00:00Z',
    '2026-01-05T10:00:00.123456789Z',
    '2026-01-05T10:00Z',
    '2026-01-05T10:00:00',
    '2026-01-05T10:00:00+01:00',
    '2026-01-05T10:00:00z',
    '2026-01-05 10:00:00Z',
    '2026-01-05T24:00:00Z',
    '2026-01-05T10:60:00Z',
    '2026-01-05T10:00:60Z',
    '2024-02-29T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-05T10:00:00.Z',
    ' 2026-01-05T10:00:00Z',
    '2026-01-05T10:00:00Z\n',
    '+012026-01-05T10:00:00Z',
    '',
  ),
  fc.string({ maxLength: 30 }),
);

/** A reading the schema accepts, drawn near its bounds. */
const valid = fc
  .integer({ min: 1, max: 3600 })
  .chain((interval) =>
    fc.record({
      v: fc.constant(1),
      seq: fc.oneof(fc.constantFrom(1, MAX_SAFE), fc.integer({ min: 1, max: MAX_SAFE })),
      at: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
      interval_s: fc.constant(interval),
      volume_l: fc.oneof(
        fc.constantFrom(0, (interval * 1500) / 60),
        fc.double({ min: 0, max: (interval * 1500) / 60, noNaN: true }),
      ),
      flow_s: fc.oneof(fc.constantFrom(0, interval), fc.integer({ min: 0, max: interval })),
      temperature_c: fc.oneof(
        fc.constantFrom(null, -40, 125),
        fc.double({ min: -40, max: 125, noNaN: true }),
      ),
      humidity_pct: fc.oneof(fc.constantFrom(null, 0, 100), fc.double({ min: 0, max: 100, noNaN: true })),
      meter_index_l: fc.option(
        fc.oneof(
          fc.constantFrom(0, METER_INDEX_MAX_L),
          fc.double({ min: 0, max: METER_INDEX_MAX_L, noNaN: true }),
        ),
        { nil: undefined },
      ),
    }),
  )
  .map(({ meter_index_l, ...reading }) =>
    meter_index_l === undefined ? reading : { ...reading, meter_index_l },
  );

const isNudge = (x: unknown): x is { by: number } => typeof x === 'object' && x !== null && 'by' in x;

const FIELDS = [
  'v',
  'seq',
  'at',
  'interval_s',
  'volume_l',
  'flow_s',
  'temperature_c',
  'humidity_pct',
  'meter_index_l',
] as const;

/** A valid reading with some fields replaced, removed, or extra fields added. */
const mutated = fc
  .tuple(
    valid,
    fc.array(
      fc.tuple(
        fc.constantFrom(...FIELDS),
        fc.oneof(
          anyNumber,
          wrongKind,
          timestamp,
          fc.constant('delete' as const),
          // Just across a bound that depends on another field (flow_s ≤ interval_s, volume_l ≤ max).
          fc.constantFrom(-1, 1, -1e-9, 1e-9, 0.5).map((by) => ({ by })),
        ),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 2 }), { nil: undefined }),
  )
  .map(([reading, changes, extra]) => {
    const value: Record<string, unknown> = { ...extra, ...reading };
    for (const [field, replacement] of changes) {
      if (replacement === 'delete') delete value[field];
      else if (isNudge(replacement)) value[field] = (value[field] as number) + replacement.by;
      else value[field] = replacement;
    }
    return value;
  });

describe('checkTelemetry, the hot-path check of telemetry', () => {
  it('accepts what the schema accepts, with the same result', () => {
    fc.assert(
      fc.property(valid, (value) => {
        const expected = bySchema(value);
        expect(expected).toBeDefined();
        expect(checkTelemetry(value)).toStrictEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what the schema refuses, on readings with wrong, missing or extra fields', () => {
    fc.assert(
      fc.property(mutated, (value) => {
        expect(checkTelemetry(value)).toStrictEqual(bySchema(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with the schema on any JSON value and on JSON text round trips', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), mutated, valid), (value) => {
        expect(checkTelemetry(value)).toStrictEqual(bySchema(value));
        const text = JSON.stringify(value);
        if (text === undefined) return;
        const parsed: unknown = JSON.parse(text);
        expect(checkTelemetry(parsed)).toStrictEqual(bySchema(parsed));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses each bound just crossed', () => {
    const good = {
      v: 1,
      seq: 1,
      at: '2026-01-05T10:00:00.000Z',
      interval_s: 60,
      volume_l: 1500,
      flow_s: 60,
      temperature_c: 125,
      humidity_pct: 100,
    };
    expect(checkTelemetry(good)).toStrictEqual(good);
    for (const change of [
      { v: 2 },
      { seq: 0 },
      { seq: 1.5 },
      { interval_s: 0 },
      { interval_s: 3601 },
      { volume_l: 1500.000001 },
      { volume_l: -0.001 },
      { flow_s: 61 },
      { temperature_c: 125.01 },
      { temperature_c: -40.01 },
      { humidity_pct: 100.01 },
      { humidity_pct: -0.01 },
      { at: '2026-01-05T10:00:00.000+00:00' },
    ]) {
      expect(bySchema({ ...good, ...change })).toBeUndefined();
      expect(checkTelemetry({ ...good, ...change })).toBeUndefined();
    }
  });
});
