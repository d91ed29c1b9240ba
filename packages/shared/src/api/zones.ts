import { z } from 'zod';
import { countField, requiredText, uuidField } from '../validation.ts';
import { VOLUME_UNITS } from '../domain/buildings.ts';
import { FLOWBOX_MODELS, VALVE_STATES, WATER_TEMPERATURES } from '../domain/flowboxes.ts';
import { SERVICE_LEVELS, ZONE_PROFILES } from '../domain/zones.ts';
import { CURRENCIES, OpeningHoursAnswerSchema, OpeningHoursSchema, PriceSchema } from './buildings.ts';
import { ListQuerySchema } from './errors.ts';

const flag = z.boolean({ error: 'validation.invalid' });

/**
 * A zone (spec §3). Mandatory: name, profile, flowbox_model and water_temperature. The service
 * level defaults to basic; opening hours and price per unit are overrides of the building's
 * (null: use the building's). The valve state is the device's and is never written here.
 */
export const ZoneCreateSchema = z.object({
  name: requiredText(),
  floor_id: uuidField.nullable().optional(),
  profile: z.enum(ZONE_PROFILES, 'validation.select'),
  // The subscription is the one source of truth (docs/billing.md): a zone call may not set it.
  service_level: z.undefined('validation.service_level_from_subscription').optional(),
  opening_hours: OpeningHoursSchema.nullable().optional(),
  price_per_unit: PriceSchema.nullable().optional(),
  occupants: countField(1_000_000).nullable().optional(),
  water_point_number: countField(100_000).nullable().optional(),
  scheduled_closing_authorised: flag.optional(),
  leak_detection_mode: flag.optional(),
  maintenance_mode: flag.optional(),
  flowbox_model: z.enum(FLOWBOX_MODELS, 'validation.select'),
  water_temperature: z.enum(WATER_TEMPERATURES, 'validation.select'),
});
export type ZoneCreateInput = z.input<typeof ZoneCreateSchema>;
export const ZoneUpdateSchema = ZoneCreateSchema.partial();
export type ZoneUpdateInput = z.input<typeof ZoneUpdateSchema>;

export const ZoneSchema = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  building_id: z.uuid(),
  floor_id: z.uuid().nullable(),
  name: z.string(),
  profile: z.enum(ZONE_PROFILES),
  service_level: z.enum(SERVICE_LEVELS),
  /** The zone's own opening hours, or null when it follows the building's. */
  opening_hours: OpeningHoursAnswerSchema.nullable(),
  /** What applies: the zone's override, else the building's (null when neither has any). */
  effective_opening_hours: OpeningHoursAnswerSchema.nullable(),
  price_per_unit: z.string().nullable(),
  effective_price_per_unit: z.string().nullable(),
  /** The building's currency and volume unit, in which the prices are given. */
  currency: z.enum(CURRENCIES),
  volume_unit: z.enum(VOLUME_UNITS),
  occupants: z.number().int().nullable(),
  water_point_number: z.number().int().nullable(),
  /** Water points recorded in the zone. */
  water_point_count: z.number().int(),
  scheduled_closing_authorised: z.boolean(),
  leak_detection_mode: z.boolean(),
  maintenance_mode: z.boolean(),
  valve_state: z.enum(VALVE_STATES),
  flowbox_model: z.enum(FLOWBOX_MODELS),
  water_temperature: z.enum(WATER_TEMPERATURES),
  created_at: z.string(),
});
export type Zone = z.infer<typeof ZoneSchema>;

/** Zones across a customer's sites (the dashboard's "buildings and zones" view, spec §6). */
export const ZoneDirectoryQuerySchema = ListQuerySchema.extend({
  site_id: z.uuid('validation.invalid').optional(),
});
export type ZoneDirectoryQuery = z.infer<typeof ZoneDirectoryQuerySchema>;

export const ZoneSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  profile: z.enum(ZONE_PROFILES),
  service_level: z.enum(SERVICE_LEVELS),
  valve_state: z.enum(VALVE_STATES),
  water_temperature: z.enum(WATER_TEMPERATURES),
  water_point_count: z.number().int(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  site_name: z.string(),
  building_id: z.uuid(),
  building_name: z.string(),
  floor_label: z.string().nullable(),
});
export type ZoneSummary = z.infer<typeof ZoneSummarySchema>;
