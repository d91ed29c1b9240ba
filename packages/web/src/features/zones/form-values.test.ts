import { WaterPointCreateSchema, ZoneCreateSchema, type Zone } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { changesOf, parseCount, parseDecimal } from '../../lib/form-values.ts';
import {
  parseOptionalId,
  parseOptionalText,
  waterPointFormValues,
  withoutValveModes,
  zoneFormValues,
} from './form-values.ts';

const zone: Zone = {
  id: '6d1c7a3e-1f0b-4c55-9a57-0b9f4d0e2a11',
  customer_id: '1e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  site_id: '2e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  building_id: '3e0b4c8a-6a3f-4d2e-9a1b-2c3d4e5f6a7b',
  floor_id: null,
  name: 'Kitchen',
  profile: 'kitchen',
  service_level: 'basic',
  opening_hours: {
    monday: [{ start: '08:00', end: '12:00' }],
    tuesday: [],
    wednesday: [],
    thursday: [],
    friday: [],
    saturday: [],
    sunday: [],
  },
  effective_opening_hours: null,
  price_per_unit: '3.1',
  effective_price_per_unit: '3.1',
  currency: 'EUR',
  volume_unit: 'm3',
  occupants: 12,
  water_point_number: null,
  water_point_count: 0,
  scheduled_closing_authorised: false,
  leak_detection_mode: false,
  maintenance_mode: true,
  valve_state: 'opened',
  flowbox_model: 'one_inch_v1',
  water_temperature: 'cold',
  created_at: '2026-01-05T10:00:00.000Z',
};

/** The form's values once the shared schema has read them, as on submit. */
const submitted = (changes: Record<string, unknown> = {}) =>
  ZoneCreateSchema.parse({ ...zoneFormValues(zone), ...changes });

function firstMessage(input: Record<string, unknown>, field: string): string | undefined {
  const result = ZoneCreateSchema.safeParse({ ...zoneFormValues(zone), ...input });
  return result.error?.issues.find((issue) => issue.path[0] === field)?.message;
}

describe('zone and water point fields typed in text boxes', () => {
  it('give the spec §5 messages through the shared zone schema', () => {
    expect(firstMessage({ occupants: parseCount('abc') }, 'occupants')).toBe('validation.number');
    expect(firstMessage({ occupants: parseCount('2.5') }, 'occupants')).toBe('validation.integer');
    expect(firstMessage({ water_point_number: parseCount('0') }, 'water_point_number')).toBe(
      'validation.min_one',
    );
    expect(firstMessage({ occupants: parseCount('') }, 'occupants')).toBeUndefined();
    expect(firstMessage({ price_per_unit: parseDecimal('3,5') }, 'price_per_unit')).toBeUndefined();
    expect(firstMessage({ price_per_unit: parseDecimal('cheap') }, 'price_per_unit')).toBe(
      'validation.decimal',
    );
  });

  it('let the shared schema refuse a flow that is not a decimal or not above 0', () => {
    const flow = (raw: string) =>
      WaterPointCreateSchema.safeParse({ label: 'Tap', type: 'sink', nominal_flow_lpm: parseDecimal(raw) })
        .error?.issues[0]?.message;
    expect(flow('six')).toBe('validation.decimal');
    expect(flow('1.23456')).toBe('validation.decimal');
    expect(flow('0')).toBe('validation.positive');
    expect(flow('0,75')).toBeUndefined();
  });

  it('read a blank location as none', () => {
    expect(parseOptionalText('   ')).toBeNull();
    expect(parseOptionalText(' Room 204 ')).toBe('Room 204');
  });
});

describe('selects', () => {
  it('reads the empty floor choice as no floor', () => {
    expect(parseOptionalId('')).toBeNull();
    expect(parseOptionalId(zone.id)).toBe(zone.id);
  });

  it('asks to select an option when a mandatory select is left empty', () => {
    expect(firstMessage({ profile: '' }, 'profile')).toBe('validation.select');
    expect(firstMessage({ flowbox_model: '' }, 'flowbox_model')).toBe('validation.select');
    expect(firstMessage({ water_temperature: '' }, 'water_temperature')).toBe('validation.select');
  });
});

describe('valve modes without valves.control', () => {
  it('leaves both modes out of what is sent, keeping everything else', () => {
    const values = withoutValveModes(submitted());
    expect(values).not.toHaveProperty('maintenance_mode');
    expect(values).not.toHaveProperty('leak_detection_mode');
    expect(values.scheduled_closing_authorised).toBe(false);
    expect(values.name).toBe('Kitchen');
  });
});

describe('what an edit sends', () => {
  it('sends nothing when nothing changed, whatever the spelling of the price', () => {
    expect(changesOf(zone, submitted({ price_per_unit: '3.10', name: ' Kitchen ' }))).toEqual({});
  });

  it('sends only the fields that changed, a cleared override as null', () => {
    expect(
      changesOf(zone, submitted({ profile: 'office', price_per_unit: null, maintenance_mode: false })),
    ).toEqual({ profile: 'office', price_per_unit: null, maintenance_mode: false });
  });

  it('compares opening hours day by day, whatever the order of days and intervals', () => {
    const same = {
      sunday: [],
      monday: [{ start: '08:00', end: '12:00' }],
    };
    expect(changesOf(zone, submitted({ opening_hours: same }))).toEqual({});
    const longer = { monday: [{ start: '08:00', end: '13:00' }] };
    expect(Object.keys(changesOf(zone, submitted({ opening_hours: longer })))).toEqual(['opening_hours']);
  });

  it('never sends the modes left out for lack of valves.control', () => {
    expect(changesOf(zone, withoutValveModes(submitted({ maintenance_mode: false })))).toEqual({});
  });

  it('sends only what changed on a water point, its flow compared as a decimal', () => {
    const point = {
      id: zone.id,
      zone_id: zone.id,
      label: 'Tap',
      type: 'sink' as const,
      location: null,
      nominal_flow_lpm: '6',
      created_at: zone.created_at,
    };
    const edited = (changes: Record<string, unknown>) =>
      WaterPointCreateSchema.parse({ ...waterPointFormValues(point), ...changes });
    expect(changesOf(point, edited({ nominal_flow_lpm: '6.00' }))).toEqual({});
    expect(changesOf(point, edited({ location: '2nd floor', nominal_flow_lpm: '7' }))).toEqual({
      location: '2nd floor',
      nominal_flow_lpm: '7',
    });
  });
});
