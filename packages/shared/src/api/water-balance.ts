import { z } from 'zod';
import { backendDate, checkDateRange, countField, uuidField } from '../validation.ts';

/*
 * A building's water balance (docs/automation.md "Building water balance"): the zone whose
 * flowboxes measure the building's main supply, against the sum of its other zones, per UTC hour or
 * per night (00:00–05:00 in the building's time zone). Volumes in litres, as the protocol's.
 */

/** A balance request reads at most this many local days of hourly figures (bounded cost). */
export const WATER_BALANCE_MAX_DAYS = 31;
/** The night the balance and its alert judge: from local midnight to this hour. */
export const WATER_BALANCE_NIGHT_END_HOUR = 5;
/** The alert's bounds: litres of unaccounted water a night, and its share of the main supply. */
export const WATER_BALANCE_MAX_LITERS_PER_NIGHT = 1_000_000;

export const WATER_BALANCE_BUCKETS = ['hour', 'night'] as const;
export type WaterBalanceBucketKind = (typeof WATER_BALANCE_BUCKETS)[number];

/**
 * `?by=night&from=2026-11-01&to=2026-11-07`: local dates of the building, both included (a night
 * is named by the date it starts); the last 7 days up to today when absent.
 */
export const WaterBalanceQuerySchema = z
  .object({
    by: z.enum(WATER_BALANCE_BUCKETS, 'validation.select').default('night'),
    from: backendDate.optional(),
    to: backendDate.optional(),
  })
  .superRefine(
    checkDateRange({ maxDays: WATER_BALANCE_MAX_DAYS, tooLong: 'validation.water_balance_too_long' }),
  )
  .refine((q) => (q.from === undefined) === (q.to === undefined), {
    message: 'validation.required',
    path: ['to'],
  });
export type WaterBalanceQuery = z.output<typeof WaterBalanceQuerySchema>;

/** What the manager sets on the building; each null turns that part off. */
export const WaterBalanceSettingsSchema = z.object({
  /** A zone of this building whose flowboxes measure its main supply. */
  main_supply_zone_id: uuidField.nullable(),
  /** Alert when a night's unaccounted water reaches this many litres. */
  alert_liters_per_night: countField(WATER_BALANCE_MAX_LITERS_PER_NIGHT).nullable(),
  /** Alert when a night's unaccounted water reaches this share (%) of the main supply's. */
  alert_share_pct: countField(100).nullable(),
});
export type WaterBalanceSettings = z.infer<typeof WaterBalanceSettingsSchema>;
export type WaterBalanceSettingsInput = z.input<typeof WaterBalanceSettingsSchema>;

/** One hour or one night of the balance. */
export const WaterBalanceBucketSchema = z.object({
  /** Its first instant (ISO, UTC) and the end, excluded. */
  start: z.string(),
  end: z.string(),
  /** The local date it starts on (a night's name). */
  date: z.string(),
  /** Litres the main supply measured (all that arrived). */
  main_l: z.number(),
  /** Litres the other zones measured, summed (all that arrived). */
  zones_l: z.number(),
  /**
   * main − zones over the bucket's complete hours: water that went in and no zone's meter saw
   * (negative: the meters disagree). Null when no hour of the bucket is complete.
   */
  unaccounted_l: z.number().nullable(),
  /** unaccounted ÷ main over the same hours; null when the main supply measured nothing in them. */
  unaccounted_share: z.number().nullable(),
  /**
   * Every meter (the main supply's and the zones' flowboxes) reported in each of its hours. An hour
   * where one had no data is left out of the unaccounted water: never counted as a loss.
   */
  complete: z.boolean(),
  /** Hours of the bucket left out because a meter had no data in them. */
  incomplete_hours: z.number().int(),
  /** The serial numbers of the meters missing in at least one of those hours. */
  missing: z.array(z.string()),
});
export type WaterBalanceBucket = z.infer<typeof WaterBalanceBucketSchema>;

export const WaterBalanceSchema = z.object({
  building_id: z.uuid(),
  timezone: z.string(),
  settings: WaterBalanceSettingsSchema,
  /** The main supply zone's name, for the chart's legend; null when none is set. */
  main_supply_zone_name: z.string().nullable(),
  by: z.enum(WATER_BALANCE_BUCKETS),
  from: z.string(),
  to: z.string(),
  buckets: z.array(WaterBalanceBucketSchema),
  /** Over the complete hours of the window only. */
  totals: z.object({
    main_l: z.number(),
    zones_l: z.number(),
    unaccounted_l: z.number(),
    unaccounted_share: z.number().nullable(),
    complete_hours: z.number().int(),
    incomplete_hours: z.number().int(),
  }),
});
export type WaterBalance = z.infer<typeof WaterBalanceSchema>;
