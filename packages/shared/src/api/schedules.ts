import { z } from 'zod';
import { backendDate, countField, requiredText } from '../validation.ts';
import { WEEKDAYS } from '../domain/buildings.ts';

/** spec §3 Schedule "frequency": how a recurring scheduled closing repeats (rrule's FREQ). */
export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/** The largest "every N days/weeks/months". */
export const SCHEDULE_INTERVAL_MAX = 99;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeField = z.string({ error: 'validation.time' }).regex(TIME, 'validation.time');

/**
 * A scheduled closing of a zone (spec §3 Schedule, docs/schedules.md), in the building's local time.
 * One-off (`recurring` false): the valve closes on `date_start` at `closing_time` and opens on
 * `date_end` at `opening_time`. Recurring: on each day the rule picks between `date_start` and
 * `date_end` (both included), the valve closes at `closing_time` and opens at `opening_time` the
 * same day, or the next day when the opening time is not after the closing time (22:00–06:00).
 */
export const ScheduleInputSchema = z
  .object({
    label: requiredText(),
    date_start: backendDate,
    date_end: backendDate,
    closing_time: timeField,
    opening_time: timeField,
    recurring: z.boolean({ error: 'validation.required' }),
    frequency: z.enum(SCHEDULE_FREQUENCIES, 'validation.select').nullable().optional(),
    interval: countField(SCHEDULE_INTERVAL_MAX).default(1),
    weekdays: z
      .array(z.enum(WEEKDAYS, 'validation.select'), { error: 'validation.invalid' })
      .max(7, 'validation.max')
      .refine((days) => new Set(days).size === days.length, 'validation.unique')
      .default([]),
  })
  .superRefine((s, ctx) => {
    // spec §5: "Should be posterior start date". A one-off closing may end the day it starts.
    if (s.date_end < s.date_start || (s.recurring && s.date_end === s.date_start))
      ctx.addIssue({ code: 'custom', message: 'validation.end_after_start', path: ['date_end'] });
    else if (!s.recurring && s.date_end === s.date_start && s.opening_time <= s.closing_time)
      ctx.addIssue({ code: 'custom', message: 'validation.opening_after_closing', path: ['opening_time'] });
    if (s.recurring && !s.frequency)
      ctx.addIssue({ code: 'custom', message: 'validation.select', path: ['frequency'] });
    if (s.recurring && s.frequency === 'weekly' && s.weekdays.length === 0)
      ctx.addIssue({ code: 'custom', message: 'validation.select', path: ['weekdays'] });
  })
  // What does not apply is not kept: a one-off has no rule, only weekly rules have weekdays.
  .transform((s) => ({
    ...s,
    frequency: s.recurring ? (s.frequency ?? null) : null,
    interval: s.recurring ? s.interval : 1,
    weekdays: s.recurring && s.frequency === 'weekly' ? s.weekdays : [],
  }));
export type ScheduleInput = z.input<typeof ScheduleInputSchema>;
export type ScheduleValues = z.output<typeof ScheduleInputSchema>;

export const ScheduleSchema = z.object({
  id: z.uuid(),
  zone_id: z.uuid(),
  label: z.string(),
  date_start: z.string(),
  date_end: z.string(),
  closing_time: z.string(),
  opening_time: z.string(),
  recurring: z.boolean(),
  frequency: z.enum(SCHEDULE_FREQUENCIES).nullable(),
  interval: z.number().int(),
  weekdays: z.array(z.enum(WEEKDAYS)),
  /** spec §3 "duration": minutes the valve stays closed, by the wall clock (a DST night may differ by an hour). */
  duration_minutes: z.number().int(),
  /** The building's time zone, in which the dates and times are read. */
  timezone: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const OccurrencesQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(50, 'validation.max')
    .default(5),
});
export type OccurrencesQuery = z.infer<typeof OccurrencesQuerySchema>;

/** One closing window: instants in UTC, and the same in the building's wall-clock time. */
export const OccurrenceSchema = z.object({
  schedule_id: z.uuid(),
  label: z.string(),
  start: z.string(),
  end: z.string(),
  /** "2026-03-28T22:00" in the building's time zone. */
  local_start: z.string(),
  local_end: z.string(),
  /** running: the valve is meant to be closed now. */
  status: z.enum(['upcoming', 'running']),
});
export type Occurrence = z.infer<typeof OccurrenceSchema>;

export const OccurrencesSchema = z.object({
  timezone: z.string(),
  /** False when the zone does not allow scheduled closings: nothing will run. */
  scheduled_closing_authorised: z.boolean(),
  items: z.array(OccurrenceSchema),
});
export type Occurrences = z.infer<typeof OccurrencesSchema>;

/**
 * What the live `schedule` message says changed in a zone's scheduled closings (docs/schedules.md
 * "Live updates"): a schedule created, edited or deleted, or a window closed, opened or its
 * opening skipped by the job.
 */
export const SCHEDULE_LIVE_CHANGES = [
  'created',
  'updated',
  'deleted',
  'closing_started',
  'closing_ended',
  'opening_skipped',
] as const;
export type ScheduleLiveChange = (typeof SCHEDULE_LIVE_CHANGES)[number];
