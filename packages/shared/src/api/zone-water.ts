import { z } from 'zod';

/**
 * Who or what closed the water (issue 33, docs/permissions.md "An end user's zone home"), read from
 * the activity log: a person (named), automatic closing, a scheduled closing, away mode, or someone
 * by hand on the device; `unknown` when no closing is in the log (a device that started closed).
 */
export const WATER_CLOSERS = [
  'person',
  'automatic_closing',
  'schedule',
  'away_mode',
  'device',
  'unknown',
] as const;
export type WaterCloser = (typeof WATER_CLOSERS)[number];

/** A zone's water: on or off, and when off, since when and by whom. */
export const ZoneWaterSchema = z.object({
  zone_id: z.uuid(),
  /** The zone's valve as its flowboxes last reported it; null: not known yet (no device report). */
  valve: z.enum(['opened', 'closed']).nullable(),
  /** When the valve was last closed (the device's confirmation), null when open or not in the log. */
  closed_since: z.string().nullable(),
  closed_by: z.enum(WATER_CLOSERS).nullable(),
  /** The person's name when `closed_by` is `person`. */
  closed_by_name: z.string().nullable(),
  /** The building's time zone, in which `closed_since` is told. */
  timezone: z.string(),
});
export type ZoneWater = z.infer<typeof ZoneWaterSchema>;
