import { MAX_FLOW_LPM, TelemetrySchema, type Telemetry } from './messages.ts';
import { PROTOCOL_VERSION } from './topics.ts';

/*
 * The telemetry check on the ingest hot path (issue #6, docs/performance.md "Ingest"): the same
 * verdict as `TelemetrySchema` (the contract, which stays the one definition), without zod's
 * per-message cost, measured at a tenth of the server's CPU per reading. Bounds and the timestamp
 * pattern are read from the schema itself; only the two refinements are restated. It answers the
 * message only when the schema would accept it, identical to what the schema would give; anything
 * else (`undefined`) goes through the schema, which names the reason. `telemetry-check.test.ts`
 * proves both directions with fast-check.
 */

const shape = TelemetrySchema.shape;
const SEQ_MIN = shape.seq.minValue ?? -Infinity;
const SEQ_MAX = shape.seq.maxValue ?? Infinity;
const INTERVAL_MIN = shape.interval_s.minValue ?? -Infinity;
const INTERVAL_MAX = shape.interval_s.maxValue ?? Infinity;
const VOLUME_MIN = shape.volume_l.minValue ?? -Infinity;
const FLOW_S_MIN = shape.flow_s.minValue ?? -Infinity;
const TEMPERATURE_MIN = shape.temperature_c.unwrap().minValue ?? -Infinity;
const TEMPERATURE_MAX = shape.temperature_c.unwrap().maxValue ?? Infinity;
const HUMIDITY_MIN = shape.humidity_pct.unwrap().minValue ?? -Infinity;
const HUMIDITY_MAX = shape.humidity_pct.unwrap().maxValue ?? Infinity;
const TIMESTAMP = shape.at._zod.def.pattern!;
const METER_INDEX_MIN = shape.meter_index_l.unwrap().minValue ?? -Infinity;
const METER_INDEX_MAX = shape.meter_index_l.unwrap().maxValue ?? Infinity;

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const within = (x: unknown, min: number, max: number): x is number => isNumber(x) && x >= min && x <= max;
const wholeWithin = (x: unknown, min: number, max: number): x is number =>
  Number.isSafeInteger(x) && (x as number) >= min && (x as number) <= max;
const nullableWithin = (x: unknown, min: number, max: number): x is number | null =>
  x === null || within(x, min, max);

/** The reading when `TelemetrySchema` accepts `value` (parsed JSON), else undefined. */
export function checkTelemetry(value: unknown): Telemetry | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { v, seq, at, interval_s, volume_l, flow_s, temperature_c, humidity_pct, meter_index_l, sent_at } =
    value as Record<string, unknown>;
  if (
    v !== PROTOCOL_VERSION ||
    !wholeWithin(seq, SEQ_MIN, SEQ_MAX) ||
    typeof at !== 'string' ||
    !TIMESTAMP.test(at) ||
    !wholeWithin(interval_s, INTERVAL_MIN, INTERVAL_MAX) ||
    !within(volume_l, VOLUME_MIN, Infinity) ||
    !wholeWithin(flow_s, FLOW_S_MIN, Number.MAX_SAFE_INTEGER) ||
    !nullableWithin(temperature_c, TEMPERATURE_MIN, TEMPERATURE_MAX) ||
    !nullableWithin(humidity_pct, HUMIDITY_MIN, HUMIDITY_MAX) ||
    (meter_index_l !== undefined && !within(meter_index_l, METER_INDEX_MIN, METER_INDEX_MAX)) ||
    (sent_at !== undefined && (typeof sent_at !== 'string' || !TIMESTAMP.test(sent_at))) ||
    // The schema's two refinements, as written there.
    !(flow_s <= interval_s) ||
    !(volume_l <= (interval_s * MAX_FLOW_LPM) / 60)
  )
    return undefined;
  const reading: Telemetry = { v, seq, at, interval_s, volume_l, flow_s, temperature_c, humidity_pct };
  // As the schema answers it: the key kept when present, even holding undefined (not from JSON).
  if ('meter_index_l' in value) reading.meter_index_l = meter_index_l as number | undefined;
  if ('sent_at' in value) reading.sent_at = sent_at as string | undefined;
  return reading;
}
