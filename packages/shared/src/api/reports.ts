import { z } from 'zod';
import { LANGUAGES } from '../roles.ts';
import { backendDate, checkDateRange, requiredText, uuidField } from '../validation.ts';

/*
 * Scheduled reports (issue 33, docs/reports.md): a customer's or a site's consumption and cost,
 * alerts, closings and leak analytics over a week or a month, as CSV and PDF, kept on the server
 * and told by email to the managers the schedule names.
 */

/** Weekly: Monday to Sunday; monthly: a calendar month; both in the scope's time zone. */
export const REPORT_FREQUENCIES = ['weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

export const REPORT_FORMATS = ['csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The longest period a report covers ("generate now"), both ends included: a leap year. */
export const REPORT_MAX_DAYS = 366;
/** Reports kept per schedule, and per scope for those generated on demand: older ones are deleted. */
export const REPORTS_KEPT = 12;
/** Recipients of one schedule. */
export const REPORT_RECIPIENTS_MAX = 50;

const unique = (values: readonly string[]) => new Set(values).size === values.length;

const formatsField = z
  .array(z.enum(REPORT_FORMATS, 'validation.select'), { error: 'validation.required' })
  .min(1, 'validation.required')
  .max(REPORT_FORMATS.length, 'validation.max')
  .refine(unique, 'validation.unique');

/** A schedule as sent to create or replace it (every field again on update). */
export const ReportScheduleInputSchema = z.object({
  name: requiredText(),
  frequency: z.enum(REPORT_FREQUENCIES, 'validation.select'),
  formats: formatsField,
  /** The language of the report's files; each email is in its recipient's own. */
  language: z.enum(LANGUAGES, 'validation.select'),
  /** Users of the customer who read the scope (docs/reports.md "Who receives"). */
  recipient_ids: z
    .array(uuidField, { error: 'validation.required' })
    .max(REPORT_RECIPIENTS_MAX, 'validation.max')
    .refine(unique, 'validation.unique'),
  enabled: z.boolean({ error: 'validation.required' }).default(true),
});
export type ReportScheduleInput = z.infer<typeof ReportScheduleInputSchema>;

export const ReportRecipientSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ReportRecipient = z.infer<typeof ReportRecipientSchema>;

export const ReportScheduleSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  /** null: the customer's schedule, over all its sites. */
  site_id: z.string().nullable(),
  name: z.string(),
  frequency: z.enum(REPORT_FREQUENCIES),
  formats: z.array(z.enum(REPORT_FORMATS)),
  language: z.enum(LANGUAGES),
  recipients: z.array(ReportRecipientSchema),
  enabled: z.boolean(),
  /** When the next report is made (the end of the period it covers), ISO 8601. */
  next_due_at: z.string(),
  created_at: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const ReportSchema = z.object({
  id: z.string(),
  /** null: generated on demand. */
  schedule_id: z.string().nullable(),
  schedule_name: z.string().nullable(),
  customer_id: z.string(),
  site_id: z.string().nullable(),
  /** The local days covered, both included. */
  period_from: z.string(),
  period_to: z.string(),
  language: z.enum(LANGUAGES),
  formats: z.array(z.enum(REPORT_FORMATS)),
  created_at: z.string(),
  /** Who asked for it; null for the job. */
  created_by: z.string().nullable(),
});
export type Report = z.infer<typeof ReportSchema>;

/** "Generate now": a chosen period of at most REPORT_MAX_DAYS days. */
export const ReportGenerateSchema = z
  .object({
    from: backendDate,
    to: backendDate,
    language: z.enum(LANGUAGES, 'validation.select'),
    formats: formatsField,
  })
  .superRefine(checkDateRange({ maxDays: REPORT_MAX_DAYS, tooLong: 'validation.report_too_long' }));
export type ReportGenerate = z.infer<typeof ReportGenerateSchema>;
