import { z } from 'zod';
import type { NotificationSeverity } from '../alerts.ts';
import { localDateTime, localToInstant } from '../time/zoned.ts';
import { TimezoneSchema } from './buildings.ts';

/*
 * How each person is told of alerts (issue 33, docs/alerts.md "How each person is told"): by which
 * channel for each severity, at once or only when they have not opened the alert, and quiet hours
 * that hold back what can wait until the morning.
 */

/** The channels an alert goes by, in the order of escalation: the phone first, then the mailbox. */
export const NOTIFICATION_CHANNELS = ['push', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * When a channel is used: at once; only if the person has not opened the alert within the
 * escalation delay (critical alerts: "the next channel"); or never.
 */
export const CHANNEL_TIMINGS = ['now', 'unopened', 'off'] as const;
export type ChannelTiming = (typeof CHANNEL_TIMINGS)[number];

/**
 * A critical alert nobody has opened this long after it opened goes by the channels people keep
 * "if not opened"; twice this long, to the zone's managers (docs/alerts.md "Escalation").
 */
export const UNOPENED_ESCALATION_MINUTES = 10;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeField = z.string({ error: 'validation.time' }).regex(TIME, 'validation.time');
const timing = z.enum(CHANNEL_TIMINGS, 'validation.select');
const nowOrOff = z.enum(['now', 'off'], 'validation.select');

export const QuietHoursSchema = z
  .object({ start: timeField, end: timeField, time_zone: TimezoneSchema })
  .strict()
  .refine((q) => q.start !== q.end, { message: 'validation.quiet_hours_empty', path: ['end'] });
export type QuietHours = z.infer<typeof QuietHoursSchema>;

export const NotificationPreferencesSchema = z
  .object({
    channels: z
      .object({
        critical: z.object({ push: timing, email: timing }).strict(),
        other: z.object({ push: nowOrOff, email: nowOrOff }).strict(),
      })
      .strict()
      // "The next channel" follows a first one: a critical alert waiting on every channel for the
      // person to open it (which they cannot, unaware of it) would never reach them.
      .refine(
        (c) =>
          !NOTIFICATION_CHANNELS.some((ch) => c.critical[ch] === 'unopened') ||
          NOTIFICATION_CHANNELS.some((ch) => c.critical[ch] === 'now'),
        { message: 'validation.first_channel', path: ['critical'] },
      ),
    quiet_hours: QuietHoursSchema.nullable(),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/**
 * What the server answers: the preferences as stored (plain values: an answer is not checked again,
 * and a time zone's transform could not be written back) and the escalation delay they refer to.
 */
export const NotificationPreferencesAnswerSchema = z.object({
  channels: z.object({
    critical: z.object({ push: z.enum(CHANNEL_TIMINGS), email: z.enum(CHANNEL_TIMINGS) }),
    other: z.object({ push: z.enum(['now', 'off']), email: z.enum(['now', 'off']) }),
  }),
  quiet_hours: z.object({ start: z.string(), end: z.string(), time_zone: z.string() }).nullable(),
  escalation_minutes: z.number().int(),
});
export type NotificationPreferencesAnswer = z.infer<typeof NotificationPreferencesAnswerSchema>;

/**
 * Until a person chooses: critical alerts pushed and emailed at once, the others emailed, no quiet
 * hours. This is what the product did before the choice existed.
 */
export function defaultNotificationPreferences(): NotificationPreferences {
  return {
    channels: { critical: { push: 'now', email: 'now' }, other: { push: 'off', email: 'now' } },
    quiet_hours: null,
  };
}

/** A stored value read back: anything missing or no longer valid is the default. */
export function notificationPreferencesOf(stored: unknown): NotificationPreferences {
  const parsed = NotificationPreferencesSchema.safeParse(stored);
  return parsed.success ? parsed.data : defaultNotificationPreferences();
}

/**
 * Which channels go when an alert opens, and which wait for the person not to have opened it.
 * A channel that cannot reach them (push without a subscribed browser) is skipped: the next one
 * then goes at once, so that nobody waits for a notification that will never come.
 */
export function channelPlan(
  preferences: NotificationPreferences,
  severity: NotificationSeverity,
  reachable: (channel: NotificationChannel) => boolean,
): { now: NotificationChannel[]; unopened: NotificationChannel[] } {
  const chosen = preferences.channels[severity] as Record<NotificationChannel, ChannelTiming>;
  const now = NOTIFICATION_CHANNELS.filter((ch) => chosen[ch] === 'now' && reachable(ch));
  const unopened = NOTIFICATION_CHANNELS.filter((ch) => chosen[ch] === 'unopened' && reachable(ch));
  if (now.length === 0 && unopened.length > 0)
    return { now: unopened.slice(0, 1), unopened: unopened.slice(1) };
  return { now, unopened };
}

/**
 * The end of the quiet hours `at` falls in, or undefined outside them. Hours are wall-clock times in
 * the person's time zone; an end not after the start runs past midnight (22:00–07:00).
 */
export function quietUntil(at: Date, quiet: QuietHours | null): Date | undefined {
  if (!quiet) return undefined;
  const [date = '', time = ''] = localDateTime(at, quiet.time_zone).split('T');
  const overnight = quiet.end <= quiet.start;
  const inside = overnight
    ? time >= quiet.start || time < quiet.end
    : time >= quiet.start && time < quiet.end;
  if (!inside) return undefined;
  const today = localToInstant(date, quiet.end, quiet.time_zone);
  if (today.getTime() > at.getTime()) return today;
  // The end is tomorrow's: the day after this local date, as a calendar date.
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return localToInstant(next, quiet.end, quiet.time_zone);
}

/** The alerts a person opened (`POST /v1/alerts/opened`): the notification tapped, the alerts shown. */
export const AlertsOpenedSchema = z
  .object({
    alert_ids: z
      .array(z.uuid('validation.invalid'), 'validation.required')
      .min(1, 'validation.required')
      .max(100, 'validation.too_many'),
  })
  .strict();
export type AlertsOpenedInput = z.infer<typeof AlertsOpenedSchema>;
export const AlertsOpenedAnswerSchema = z.object({ opened: z.number().int() });
