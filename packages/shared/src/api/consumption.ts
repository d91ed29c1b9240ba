import { z } from 'zod';
import { backendDate, checkDateRange } from '../validation.ts';
import { CURRENCIES } from './buildings.ts';
import { PriceTermsSchema } from '../billing/plans.ts';
import { VOLUME_UNITS, WEEKDAYS } from '../domain/buildings.ts';

/**
 * Consumption graph windows (spec §9, DESIGN.md §4), each ending with the bucket that holds now
 * (so the graph moves as readings arrive), in the building's time zone (docs/consumption.md):
 * - `day`: the last 24 hours, 24 buckets of one hour (UTC hours; 23/25-hour days do not matter);
 * - `week`: the last 7 days, 7 buckets of one local day (today last);
 * - `month`: the last 4 weeks, 4 buckets of one week starting on the building's first day of week
 *   (the current week last);
 * - `year`: the last 12 months, 12 buckets of one calendar month (the current month last).
 */
export const CONSUMPTION_WINDOWS = ['day', 'week', 'month', 'year'] as const;
export type ConsumptionWindow = (typeof CONSUMPTION_WINDOWS)[number];

/** What a series covers: one zone, or every zone of a building, site or customer the caller sees. */
export const CONSUMPTION_SCOPES = ['zone', 'building', 'site', 'customer'] as const;
export type ConsumptionScope = (typeof CONSUMPTION_SCOPES)[number];

/**
 * spec §5: comparing is impossible when one of the two periods is 0. `change_pct` is then null and
 * `reason` says which period is empty, so the screen can say why.
 */
export const COMPARISON_REASONS = ['current_zero', 'previous_zero', 'both_zero'] as const;
export type ComparisonReason = (typeof COMPARISON_REASONS)[number];

const windowField = z.enum(CONSUMPTION_WINDOWS, 'validation.select');

/** `?window=day&compare=previous`; compare defaults to `previous` (`none` skips the second series). */
export const ConsumptionQuerySchema = z.object({
  window: windowField.default('day'),
  compare: z.enum(['previous', 'none'], 'validation.select').default('previous'),
});
export type ConsumptionQuery = z.infer<typeof ConsumptionQuerySchema>;

export const ConsumptionWindowQuerySchema = z.object({ window: windowField.default('day') });
export type ConsumptionWindowQuery = z.infer<typeof ConsumptionWindowQuerySchema>;

/** Longest CSV export, in days, both ends included (five years): its cost grows with its days. */
export const EXPORT_MAX_DAYS = 1830;

/**
 * CSV export: a window (its buckets), or `from`/`to` local dates, both included, one line a day.
 * spec §5 "Should be posterior start date" when `to` is before `from`.
 */
export const ConsumptionExportQuerySchema = z
  .object({
    window: windowField.optional(),
    from: backendDate.optional(),
    to: backendDate.optional(),
  })
  .superRefine(checkDateRange({ maxDays: EXPORT_MAX_DAYS, tooLong: 'validation.export_too_long' }))
  .refine((q) => q.window !== undefined || (q.from !== undefined && q.to !== undefined), {
    message: 'validation.required',
    path: ['from'],
  });
export type ConsumptionExportQuery = z.infer<typeof ConsumptionExportQuerySchema>;

/**
 * Volumes are decimal strings in `volume_unit` (3 decimals), costs decimal strings in `currency`
 * rounded to its minor unit, or null when no zone of the scope has a subscription billed in it.
 */
const volume = z.string();
const cost = z.string().nullable();

/**
 * One bucket: `start`/`end` are instants (ISO 8601, UTC), `end` exclusive; `date` is the local date
 * (building's time zone) the bucket starts on, handy for labels.
 */
export const ConsumptionBucketSchema = z.object({
  start: z.string(),
  end: z.string(),
  date: z.string(),
  volume,
  cost,
});
export type ConsumptionBucket = z.infer<typeof ConsumptionBucketSchema>;

/**
 * Costs of zones billed in another currency than the answer's `currency` (a site or customer whose
 * buildings use several): no exchange rates, so they are listed apart, never added.
 */
export const OtherCurrencyCostSchema = z.object({ currency: z.enum(CURRENCIES), cost: z.string() });

export const ConsumptionTotalSchema = z.object({
  volume,
  cost,
  other_currencies: z.array(OtherCurrencyCostSchema),
});

export const ComparisonSchema = z.object({
  /** (current − previous) / previous × 100, one decimal, e.g. "-12.5"; null when not comparable. */
  change_pct: z.string().nullable(),
  reason: z.enum(COMPARISON_REASONS).nullable(),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

/**
 * The previous period: the same buckets one window earlier (24 h, 7 days, 4 weeks, 12 months),
 * each complete. `total_to_date` is its volume up to the same point as now in the current window
 * (its last bucket pro rata), which the comparison uses so that a half-elapsed hour, day, week or
 * month is not compared with a whole one.
 */
export const PreviousPeriodSchema = z.object({
  from: z.string(),
  to: z.string(),
  buckets: z.array(ConsumptionBucketSchema),
  total: ConsumptionTotalSchema,
  total_to_date: volume,
});

/**
 * A consumption series (GET …/consumption) for a zone, building, site or customer. `from` is the
 * first bucket's start, `to` is now. Scopes spanning buildings: `timezone`, `first_day_of_week`
 * are the first building's (by name); volumes are converted to the unit most of the scope's zones
 * use; see docs/consumption.md.
 */
export const ConsumptionSeriesSchema = z.object({
  scope: z.enum(CONSUMPTION_SCOPES),
  scope_id: z.uuid(),
  window: z.enum(CONSUMPTION_WINDOWS),
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  first_day_of_week: z.enum(WEEKDAYS),
  volume_unit: z.enum(VOLUME_UNITS),
  currency: z.enum(CURRENCIES),
  buckets: z.array(ConsumptionBucketSchema),
  total: ConsumptionTotalSchema,
  /** null when `compare=none`. */
  previous: PreviousPeriodSchema.nullable(),
  comparison: ComparisonSchema.nullable(),
});
export type ConsumptionSeries = z.infer<typeof ConsumptionSeriesSchema>;

/** One zone's line in a comparison of zones (GET building or site …/consumption/zones). */
export const ZoneConsumptionSchema = z.object({
  zone_id: z.uuid(),
  zone_name: z.string(),
  building_id: z.uuid(),
  building_name: z.string(),
  volume,
  cost,
  /** The zone's own currency (its building's). */
  currency: z.enum(CURRENCIES),
  previous_volume: volume,
  comparison: ComparisonSchema,
});
export type ZoneConsumption = z.infer<typeof ZoneConsumptionSchema>;

/** Zones of a building or site compared over a window, largest volume first. */
export const ZonesComparisonSchema = z.object({
  window: z.enum(CONSUMPTION_WINDOWS),
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  volume_unit: z.enum(VOLUME_UNITS),
  zones: z.array(ZoneConsumptionSchema),
});
export type ZonesComparison = z.infer<typeof ZonesComparisonSchema>;

/** min/avg/max of a bucket's readings; null when the bucket has none. */
export const ClimateStatSchema = z.object({ min: z.number(), avg: z.number(), max: z.number() }).nullable();

/**
 * Device-level details of a premium zone (spec §6; refused on the server with
 * `errors.premium_required` for basic zones): each flowbox's own volume and flow time per bucket,
 * and the climate (temperature °C, humidity %) per bucket.
 */
export const ConsumptionDetailsSchema = z.object({
  window: z.enum(CONSUMPTION_WINDOWS),
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  volume_unit: z.enum(VOLUME_UNITS),
  flowboxes: z.array(
    z.object({
      flowbox_id: z.uuid(),
      /** null when the device has since been removed (its figures outlive it). */
      serial_number: z.string().nullable(),
      buckets: z.array(
        z.object({ start: z.string(), end: z.string(), date: z.string(), volume, flow_s: z.number().int() }),
      ),
    }),
  ),
  climate: z.array(
    z.object({
      start: z.string(),
      end: z.string(),
      date: z.string(),
      temperature: ClimateStatSchema,
      humidity: ClimateStatSchema,
    }),
  ),
});
export type ConsumptionDetails = z.infer<typeof ConsumptionDetailsSchema>;

/**
 * Today's statistics for the dashboard (GET /v1/dashboard/today), over what the caller may see.
 * "Today" is each building's own local day so far.
 */
export const DashboardTodaySchema = z.object({
  volume_unit: z.enum(VOLUME_UNITS),
  currency: z.enum(CURRENCIES),
  volume_today: volume,
  /** Average of the same weekday over the previous 4 weeks (whole days). */
  same_weekday_average: volume,
  /** The same average, each day up to the same local time as now: what `comparison` compares today with. */
  usual_to_date: volume,
  /** Today so far against `usual_to_date`. */
  comparison: ComparisonSchema,
  cost_today: cost,
  other_currencies: z.array(OtherCurrencyCostSchema),
  devices: z.object({ online: z.number().int(), offline: z.number().int() }),
  /** Open alerts (not silenced, not resolved) the caller may see: the header's count. */
  open_alerts: z.number().int(),
  /**
   * Leak analytics of the zones the caller may see (docs/automation.md "Leak analytics"): how many
   * have had no flow-free hour for 24 h or more, how many a night flow above their allowance, and
   * the litres all of them lose a day.
   */
  leaks: z.object({
    continuous_flow_zones: z.number().int(),
    night_above_allowance_zones: z.number().int(),
    loss_litres_per_day: z.number(),
  }),
  /** The 5 zones that consumed most today. */
  top_zones: z.array(
    z.object({
      zone_id: z.uuid(),
      zone_name: z.string(),
      building_id: z.uuid(),
      building_name: z.string(),
      site_id: z.uuid(),
      customer_id: z.uuid(),
      volume,
    }),
  ),
});
export type DashboardToday = z.infer<typeof DashboardTodaySchema>;

/**
 * The price tiers that bill a zone now (issue 15): the ranges of its subscription plan's version in
 * force today, the current billing period and its volume so far (in the plan's unit), and the
 * range that volume has reached. null: no subscription in force, nothing is priced.
 */
export const ZonePriceTiersSchema = z
  .object({
    plan_id: z.uuid(),
    /** The billing period: its first day, and the day after its last. */
    period_from: z.string(),
    period_to: z.string(),
    /** Volume of the period so far, in `volume_unit`, to three decimals. */
    period_volume: z.string(),
    volume_unit: z.enum(VOLUME_UNITS),
    currency: z.enum(CURRENCIES),
    ranges: z.array(
      z.object({ volume_start: z.string(), volume_end: z.string().nullable(), price_per_unit: z.string() }),
    ),
    /** Index in `ranges` of the tier the period's volume has reached. */
    current_range: z.number().int(),
    /** The plan's next price terms and the day they start; null: none is set (issue 30). */
    upcoming: PriceTermsSchema.nullable(),
  })
  .nullable();
export type ZonePriceTiers = z.infer<typeof ZonePriceTiersSchema>;
