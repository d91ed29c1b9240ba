import type {
  WaterPoint,
  WaterPointCreateInput,
  WaterPointCreateSchema,
  Zone,
  ZoneCreateInput,
  ZoneCreateSchema,
} from '@flowbox/shared';
import type { z } from 'zod';

/** What the forms hand over once the shared schemas have checked them. */
export type ZoneValues = z.output<typeof ZoneCreateSchema>;
export type WaterPointValues = z.output<typeof WaterPointCreateSchema>;

/** A select whose empty choice means "none" (the zone's floor). */
export function parseOptionalId(raw: unknown): string | null {
  return typeof raw === 'string' && raw !== '' ? raw : null;
}

/** A location left blank is none, not an empty text. */
export function parseOptionalText(raw: unknown): string | null {
  return String(raw ?? '').trim() || null;
}

/** The form's starting values for an existing zone. */
export function zoneFormValues(zone: Zone): ZoneCreateInput {
  return {
    name: zone.name,
    floor_id: zone.floor_id,
    profile: zone.profile,
    opening_hours: zone.opening_hours,
    price_per_unit: zone.price_per_unit,
    occupants: zone.occupants,
    water_point_number: zone.water_point_number,
    scheduled_closing_authorised: zone.scheduled_closing_authorised,
    leak_detection_mode: zone.leak_detection_mode,
    maintenance_mode: zone.maintenance_mode,
    flowbox_model: zone.flowbox_model,
    water_temperature: zone.water_temperature,
  };
}

/** The form's starting values for an existing water point. */
export function waterPointFormValues(point: WaterPoint): WaterPointCreateInput {
  return {
    label: point.label,
    type: point.type,
    location: point.location,
    nominal_flow_lpm: point.nominal_flow_lpm,
  };
}

/**
 * Without `valves.control` the modes are not sent at all: the server refuses any request naming
 * them (docs/permissions.md), even unchanged.
 */
export function withoutValveModes(values: ZoneValues): ZoneValues {
  const { maintenance_mode: _maintenance, leak_detection_mode: _leak, ...rest } = values;
  return rest;
}
