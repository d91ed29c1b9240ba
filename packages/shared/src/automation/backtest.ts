import { z } from 'zod';
import { AlertAnswerSummarySchema } from '../api/alerts.ts';
import { OpeningHoursSchema } from '../api/buildings.ts';
import { AutomaticClosingSettingsSchema, TRIGGERS } from './settings.ts';
import { VOLUME_UNITS } from '../domain/buildings.ts';
import { ZONE_PROFILES } from '../domain/zones.ts';

/*
 * Backtest before saving (issue #29, docs/automation.md "Backtest"): what proposed margins or a
 * proposed zone profile would have done over the zone's stored readings, beside what the settings
 * in force did, both replayed through the live detection code.
 */

/** How many past days a backtest replays: 30 unless asked, at most 31 (the cost is the window's). */
export const BACKTEST_DAYS = { default: 30, min: 1, max: 31 } as const;

/** Decisions listed per side at most; the counts are always whole. */
export const BACKTEST_MAX_DECISIONS = 500;

/**
 * The settings to try. Each part left out is the one in force: the margins (as the automatic-closing
 * form saves them, volume in the building's unit), the zone's profile, the zone's own opening hours
 * (null: it follows the building's).
 */
export const BacktestRequestSchema = z.object({
  days: z
    .number({ error: 'validation.integer' })
    .int('validation.integer')
    .min(BACKTEST_DAYS.min, 'validation.min')
    .max(BACKTEST_DAYS.max, 'validation.max')
    .default(BACKTEST_DAYS.default),
  automatic_closing: AutomaticClosingSettingsSchema.optional(),
  profile: z.enum(ZONE_PROFILES, { error: 'validation.invalid' }).optional(),
  opening_hours: OpeningHoursSchema.nullable().optional(),
});
export type BacktestRequest = z.output<typeof BacktestRequestSchema>;
export type BacktestRequestInput = z.input<typeof BacktestRequestSchema>;

export const BACKTEST_CAUSES = [
  'automatic_closing',
  'abnormal_consumption',
  'continuous_flow',
  'leak_detection_mode',
] as const;
export type BacktestCause = (typeof BACKTEST_CAUSES)[number];

/** One closing or alert the replay decided. */
export const BacktestDecisionSchema = z.object({
  kind: z.enum(['closing', 'alert']),
  cause: z.enum(BACKTEST_CAUSES),
  /** When detection decided: the receipt of the readings that made it. */
  at: z.string(),
  /** The event's start, and the end of the reading that crossed the margin (or made it a leak). */
  event_started_at: z.string().nullable(),
  crossed_at: z.string(),
  /** The event's volume (litres) and flowing time (seconds) at that reading. */
  volume_l: z.number(),
  flow_s: z.number(),
  /** Which margin it crossed; null for a leak (continuous flow). */
  trigger: z.enum(TRIGGERS).nullable(),
  /** The water had stopped before its readings arrived: an alert about the past, never a closing. */
  reported_late: z.boolean(),
});
export type BacktestDecision = z.infer<typeof BacktestDecisionSchema>;

/** One side of the comparison: its counts, and its decisions in time order. */
export const BacktestRunSchema = z.object({
  closings: z.number().int(),
  alerts: z.number().int(),
  decisions: z.array(BacktestDecisionSchema),
  /** More than BACKTEST_MAX_DECISIONS decisions: the first ones are listed. */
  truncated: z.boolean(),
});
export type BacktestRun = z.infer<typeof BacktestRunSchema>;

export const BacktestSchema = z.object({
  zone_id: z.uuid(),
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  /** Stored readings replayed. */
  readings: z.number().int(),
  volume_unit: z.enum(VOLUME_UNITS),
  proposed: BacktestRunSchema,
  in_force: BacktestRunSchema,
  /**
   * "Was this you?" on the zone's alerts over the last 90 days (issue 33): the people's own word
   * on which alerts were normal use, shown beside the replay to weigh proposed margins.
   */
  answers: AlertAnswerSummarySchema,
});
export type Backtest = z.infer<typeof BacktestSchema>;
