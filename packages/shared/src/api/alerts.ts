import { z } from 'zod';
import { ALERT_ANSWERS, ALERT_CATEGORIES, type AlertCategory } from '../alerts.ts';
import { backendDate, checkDateRange } from '../validation.ts';
import { VOLUME_UNITS } from '../domain/buildings.ts';

/**
 * Alerts (spec §3 alert settings, §4 alerts; docs/alerts.md). One open alert per cause in a zone:
 * a repeat raises its count and last-seen time. Silenced alerts stay "in progress" (a repeat counts
 * on them) but no longer escalate; resolved ones are history.
 */
export const ALERT_STATES = ['open', 'silenced', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** spec §4 "silenced, unsilenced and resolved by the user". */
export const ALERT_TRANSITIONS = ['silence', 'unsilence', 'resolve'] as const;
export type AlertTransition = (typeof ALERT_TRANSITIONS)[number];

/** Critical categories are emailed again at the escalation interval until silenced or resolved. */
export const CRITICAL_ALERT_CATEGORIES: readonly AlertCategory[] = [
  'abnormal_water_consumption_no_ac',
  'abnormal_water_consumption_with_ac',
  'leakage_detection',
];

/**
 * Premium-only by default (spec §6 "some alerts are premium only"): the ones that read consumption
 * or temperature details, which are premium views. A closing that happened (with_ac) is always told.
 */
export const DEFAULT_PREMIUM_ONLY: readonly AlertCategory[] = [
  'water_temperature',
  'abnormal_water_consumption_no_ac',
  'leakage_detection',
];

export const AlertCategorySchema = z.enum(ALERT_CATEGORIES, 'validation.select');

/**
 * Free-form facts about the cause (readings, thresholds, command ids), told as a sentence by
 * `alertDetailsText` (i18n/alert-texts.ts); facts it does not know are shown as they are.
 */
export const AlertDetailsSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type AlertDetails = z.infer<typeof AlertDetailsSchema>;

export const AlertAnswerInputSchema = z.object({ answer: z.enum(ALERT_ANSWERS, 'validation.select') });
export type AlertAnswerInput = z.infer<typeof AlertAnswerInputSchema>;

/** One person's answer: each answers once per alert, a new answer replacing theirs. */
export const AlertAnswerSchema = z.object({
  user_id: z.uuid().nullable(),
  user_name: z.string(),
  answer: z.enum(ALERT_ANSWERS),
  answered_at: z.string(),
});
export type AlertAnswer = z.infer<typeof AlertAnswerSchema>;

/** How long back the answers of a zone are summed (the backtest's evidence of what is normal there). */
export const ALERT_ANSWER_SUMMARY_DAYS = 90;

export const AlertAnswerSummaryQuerySchema = z.object({ zone_id: z.uuid('validation.invalid') });
export type AlertAnswerSummaryQuery = z.infer<typeof AlertAnswerSummaryQuerySchema>;

/** A zone's answers over the last ALERT_ANSWER_SUMMARY_DAYS days: how many people said "me", "not me". */
export const AlertAnswerSummarySchema = z.object({
  zone_id: z.uuid(),
  since: z.string(),
  days: z.number().int(),
  me: z.number().int(),
  not_me: z.number().int(),
  /** Alerts with at least one answer. */
  alerts_answered: z.number().int(),
});
export type AlertAnswerSummary = z.infer<typeof AlertAnswerSummarySchema>;

export const AlertSchema = z.object({
  id: z.uuid(),
  category: AlertCategorySchema,
  /** The cause key: one alert not resolved per (zone, cause). */
  cause: z.string(),
  state: z.enum(ALERT_STATES),
  critical: z.boolean(),
  details: AlertDetailsSchema,
  count: z.number().int(),
  opened_at: z.string(),
  last_seen_at: z.string(),
  silenced_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  /** Who resolved it; null with `resolved_automatically` when the cause cleared. */
  resolved_by: z.string().nullable(),
  resolved_automatically: z.boolean(),
  emailed_at: z.string().nullable(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  building_id: z.uuid(),
  zone_id: z.uuid(),
  zone_name: z.string(),
  building_name: z.string(),
  /** The building's time zone and volume unit, in which the alert's details are told. */
  building_timezone: z.string(),
  building_volume_unit: z.enum(VOLUME_UNITS),
  flowbox_id: z.uuid().nullable(),
  flowbox_serial: z.string().nullable(),
  /**
   * "Was this you?" (issue 33, docs/alerts.md): the answers given on a leak or abnormal-use alert,
   * latest first; on the list and one alert's answer (a live message leaves it out). The zone's
   * managers read everyone's, an end user its own.
   */
  answers: z.array(AlertAnswerSchema).optional(),
  /**
   * "Reading → notification sent" (issue 33, docs/push.md): when a push service first took one of
   * the alert's notifications, and how many seconds after the reading that opened it; null when no
   * push went (nobody to push to, or not yet). On the list and one alert, not in a live message.
   */
  first_push: z.object({ sent_at: z.string(), after_s: z.number().nullable() }).nullable().optional(),
});
export type Alert = z.infer<typeof AlertSchema>;

const uuidFilter = z.uuid('validation.invalid').optional();

export const AlertsQuerySchema = z
  .object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int('validation.integer').min(1, 'validation.min_one').max(200).default(50),
    customer_id: uuidFilter,
    site_id: uuidFilter,
    building_id: uuidFilter,
    zone_id: uuidFilter,
    category: AlertCategorySchema.optional(),
    /** "active": open or silenced (the default screen). */
    state: z.enum([...ALERT_STATES, 'active'], 'validation.select').optional(),
    from: backendDate.optional(),
    to: backendDate.optional(),
  })
  // A filter, not an enumeration: a page costs its `limit` whatever the range (docs/reliability.md).
  .superRefine(checkDateRange(null));
export type AlertsQuery = z.infer<typeof AlertsQuerySchema>;

/** Newest first by last seen; `next_cursor` fetches older ones (null at the end). */
export const AlertsPageSchema = z.object({ items: z.array(AlertSchema), next_cursor: z.string().nullable() });
export type AlertsPage = z.infer<typeof AlertsPageSchema>;

/** The header count: alerts in the caller's scope that are open (not silenced). */
/** The header count, narrowed like the list to one customer, site, building or zone. */
export const AlertCountQuerySchema = z.object({
  customer_id: uuidFilter,
  site_id: uuidFilter,
  building_id: uuidFilter,
  zone_id: uuidFilter,
});
export type AlertCountQuery = z.infer<typeof AlertCountQuerySchema>;

export const AlertCountSchema = z.object({ open: z.number().int(), silenced: z.number().int() });
export type AlertCount = z.infer<typeof AlertCountSchema>;

/** spec §3 alert settings: one per category, set by provider managers, for the whole service. */
export const AlertCategorySettingSchema = z.object({
  category: AlertCategorySchema,
  /** The email subject, per language. */
  subject: z.object({ en: z.string(), fr: z.string() }),
  enabled: z.boolean(),
  premium_only: z.boolean(),
  /** spec §3: the email flag, true by default; false: the category is never emailed. */
  email: z.boolean(),
  critical: z.boolean(),
});
export type AlertCategorySetting = z.infer<typeof AlertCategorySettingSchema>;

const subjectText = z
  .string('validation.required')
  .trim()
  .min(1, 'validation.required')
  .max(200, 'validation.too_long');

export const AlertCategorySettingUpdateSchema = z.object({
  subject: z.object({ en: subjectText, fr: subjectText }).optional(),
  enabled: z.boolean('validation.invalid').optional(),
  premium_only: z.boolean('validation.invalid').optional(),
  email: z.boolean('validation.invalid').optional(),
});
export type AlertCategorySettingUpdate = z.infer<typeof AlertCategorySettingUpdateSchema>;

export const AlertCategorySettingsSchema = z.object({ items: z.array(AlertCategorySettingSchema) });

/** spec §4 monitoring status-change events; volume and duration belong to automatic closing. */
export const MONITORING_METRICS = ['temperature', 'humidity'] as const;
export type MonitoringMetric = (typeof MONITORING_METRICS)[number];
export const MONITORING_STATUSES = ['normal', 'warning', 'alert'] as const;
export type MonitoringStatus = (typeof MONITORING_STATUSES)[number];
