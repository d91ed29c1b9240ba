import { z } from 'zod';
import { CRITICAL_ALERT_CATEGORIES } from './alerts.ts';
import { CONNECTION_STATES } from './flowboxes.ts';
import { FLOWBOX_MODELS, VALVE_STATES } from '../domain/flowboxes.ts';

/*
 * The fleet at a glance (issue #18, docs/fleet.md): every flowbox of the caller's scope on one
 * list, filtered, searched by serial, sorted and paged by a keyset cursor so that page 2,000 costs
 * what page 1 does.
 */

/** What the list sorts on; ties are broken by the serial (unique), in the same direction. */
export const FLEET_SORTS = ['serial', 'last_reading', 'customer', 'open_alerts', 'firmware'] as const;
export type FleetSort = (typeof FLEET_SORTS)[number];
export const FLEET_SORT_DIRECTIONS = ['asc', 'desc'] as const;

/** "Leaking": an alert not resolved of one of these categories in the flowbox's zone. */
export const FLEET_LEAK_CATEGORIES = CRITICAL_ALERT_CATEGORIES;

/** An export holds at most this many lines (docs/fleet.md "CSV"). */
export const FLEET_EXPORT_MAX = 100_000;
export const FLEET_PAGE_MAX = 200;

const flag = z
  .enum(['true', 'false'], 'validation.select')
  .transform((v) => v === 'true')
  .optional();

/** The filters, search and sort shared by the list and its CSV export. */
export const FleetFilterSchema = z.object({
  /** Serial prefix, case-insensitive; `%` and `_` are plain characters. */
  q: z.string().trim().max(64, 'validation.too_long').optional(),
  /** Disconnected or never connected. */
  offline: flag,
  /** Valve reported closed. */
  closed: flag,
  /** Zone locked by automatic closing (spec §4). */
  locked: flag,
  /** An alert not resolved of a leak category in the zone. */
  leaking: flag,
  /**
   * The zone has had no flow-free hour for at least this many days (leak analytics' hour counter,
   * docs/automation.md "Leak analytics").
   */
  continuous_flow_days: z.coerce
    .number('validation.number')
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(31, 'validation.max')
    .optional(),
  /** The zone's night flow (20th percentile of 7 nights) is above its occupants' allowance, or not. */
  night_above_allowance: flag,
  firmware_version: z.string().trim().min(1, 'validation.required').max(64, 'validation.too_long').optional(),
  model: z.enum(FLOWBOX_MODELS, 'validation.select').optional(),
  customer_id: z.uuid('validation.invalid').optional(),
  site_id: z.uuid('validation.invalid').optional(),
  sort: z.enum(FLEET_SORTS, 'validation.select').default('serial'),
  dir: z.enum(FLEET_SORT_DIRECTIONS, 'validation.select').default('asc'),
});
export type FleetFilter = z.infer<typeof FleetFilterSchema>;

export const FleetQuerySchema = FleetFilterSchema.extend({
  cursor: z.string().max(300, 'validation.too_long').optional(),
  limit: z.coerce
    .number('validation.number')
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(FLEET_PAGE_MAX, 'validation.max')
    .default(50),
});
export type FleetQuery = z.infer<typeof FleetQuerySchema>;
export type FleetQueryInput = z.input<typeof FleetQuerySchema>;

export const FleetRowSchema = z.object({
  id: z.uuid(),
  serial: z.string(),
  model: z.enum(FLOWBOX_MODELS).nullable(),
  customer_id: z.uuid(),
  customer_name: z.string(),
  site_id: z.uuid(),
  site_name: z.string(),
  building_id: z.uuid(),
  building_name: z.string(),
  zone_id: z.uuid(),
  zone_name: z.string(),
  connection: z.enum(CONNECTION_STATES),
  /** When the connection last changed; null if never connected. */
  connection_since: z.string().nullable(),
  valve: z.enum(VALVE_STATES).nullable(),
  /** The zone is locked by automatic closing. */
  zone_locked: z.boolean(),
  leaking: z.boolean(),
  firmware_version: z.string().nullable(),
  /** The newest reading's time; null before the first. */
  last_reading_at: z.string().nullable(),
  /** Alerts not resolved of this flowbox, and those of its zone that name no flowbox. */
  open_alerts: z.number().int(),
});
export type FleetRow = z.infer<typeof FleetRowSchema>;

export const FleetPageSchema = z.object({
  items: z.array(FleetRowSchema),
  /** The next page's cursor; null on the last page. */
  next_cursor: z.string().nullable(),
  /** How many flowboxes match, counted on the first page only (null with a cursor). */
  total: z.number().int().nullable(),
});
export type FleetPage = z.infer<typeof FleetPageSchema>;
