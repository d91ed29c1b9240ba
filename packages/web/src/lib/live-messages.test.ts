import { LiveMessageSchema } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LIVE_SHAPES, LIVE_TYPES, parseLiveMessage } from './live-messages.ts';

type Schema = z.ZodType;
const unwrap = (schema: Schema): Schema => {
  const inner = (schema as { unwrap?: () => Schema }).unwrap;
  return inner ? unwrap(inner.call(schema)) : schema;
};
const shapeOf = (schema: Schema) => (unwrap(schema) as unknown as { shape: Record<string, Schema> }).shape;
const optionOf = (type: string) =>
  LiveMessageSchema.options.find((option) => option.shape.type.value === type) as unknown as Schema;

/** Every field the web app checks, with what the schema says of it: present, may be null, may be missing. */
function fieldsOf(shape: object, schema: Schema, path: string): string[] {
  const fields = shapeOf(schema);
  return Object.entries(shape).flatMap(([name, field]: [string, unknown]) => {
    const inner = fields[name];
    const where = `${path}.${name}`;
    if (!inner) return [`${where}: not in the schema`];
    if (inner.safeParse(undefined).success) return [`${where}: may be missing`];
    if (typeof field === 'object' && field) return fieldsOf(field, inner, where);
    const nullable = inner.safeParse(null).success;
    return nullable === (field === 'id?')
      ? []
      : [`${where}: ${nullable ? 'nullable' : 'never null'} in the schema`];
  });
}

describe('pushed messages (issue 16: read without zod)', () => {
  it('knows every message type of the schema, and no other', () => {
    expect([...LIVE_TYPES].sort()).toEqual(LiveMessageSchema.options.map((o) => o.shape.type.value).sort());
  });

  it('checks only fields the schema requires, nullable exactly where the schema says: a valid message is never dropped', () => {
    const problems = Object.entries(LIVE_SHAPES).flatMap(([type, shape]) =>
      fieldsOf(shape, optionOf(type), type),
    );
    expect(problems).toEqual([]);
  });

  it('drops what is not one of its messages', () => {
    const zone = {
      customer_id: 'c0000000-0000-4000-8000-000000000001',
      site_id: 'c0000000-0000-4000-8000-000000000002',
      zone_id: 'c0000000-0000-4000-8000-000000000003',
    };
    const removed = { type: 'flowbox_removed', flowbox_id: 'c0000000-0000-4000-8000-000000000004', ...zone };
    expect(parseLiveMessage(JSON.stringify(removed))).toEqual(removed);
    for (const bad of [
      '{not json',
      'null',
      '[]',
      JSON.stringify({ ...removed, type: 'unknown_type' }),
      JSON.stringify({ ...removed, type: 'toString' }),
      JSON.stringify({ ...removed, zone_id: 7 }),
      JSON.stringify({ type: 'flowbox', flowbox: null }),
      JSON.stringify({ type: 'flowbox', flowbox: { id: 'x', ...zone } }), // no building_id
      JSON.stringify({ type: 'alert', alert: { id: 1 }, ...zone }),
      JSON.stringify({
        type: 'consumption',
        ...zone,
        building_id: 'b',
        readings: '3',
        volume_ml: 1,
        latest_measured_at: 'x',
      }),
    ])
      expect(parseLiveMessage(bad), bad).toBeNull();
  });
});
