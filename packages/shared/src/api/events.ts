import { z } from 'zod';
import { backendDate, checkDateRange } from '../validation.ts';

/** spec §3 event facets: who or what made a change. */
export const EVENT_ORIGINS = ['web', 'device', 'system'] as const;
export type EventOrigin = (typeof EVENT_ORIGINS)[number];

/** The kinds of record the activity log speaks of. */
export const EVENT_OBJECTS = [
  'customer',
  'site',
  'building',
  'floor',
  'zone',
  'water_point',
  'flovea_manager',
  'customer_manager',
  'site_manager',
  /** docs/permissions.md: an end user of a zone, a plumber of sites, a registration, a claim code. */
  'end_user',
  'plumber',
  'registration',
  'claim_code',
  'user',
  'flowbox',
  'pricing_plan',
  'subscription',
  'schedule',
  /** docs/webhooks.md: a customer's webhook (its secret rotated is `updated` with `secret`). */
  'webhook',
  'alert',
  /** spec §3 alert settings of one category, the whole service's (no customer). */
  'alert_category',
  /** A firmware image of the catalogue (docs/firmware.md): the provider's, no customer. */
  'firmware_image',
  /** docs/firmware.md: a staged firmware rollout (its place in the scope columns, when it has one). */
  'firmware_rollout',
  /** docs/maps.md: an entry of the plumber directory (a customer's, or the provider's shared one). */
  'plumber_entry',
  /** docs/reports.md: a scheduled report of a customer or a site, and a report generated. */
  'report_schedule',
  'report',
] as const;
export type EventObject = (typeof EVENT_OBJECTS)[number];

/** What happened to it. Later issues add device and system actions (valve, pairing, alerts...). */
export const EVENT_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'permissions_updated',
  'password_changed',
  'password_reset',
  'invitation_accepted',
  // Flowboxes (spec §4): pairing steps and their ends.
  'pairing_prepared',
  'pairing_announced',
  'pairing_validated',
  'pairing_refused',
  'unpaired',
  'detached',
  // Valve and modes, by a command (origin web or system) or on the device (origin device).
  'valve_opened',
  'valve_closed',
  'maintenance_enabled',
  'maintenance_disabled',
  'leak_detection_enabled',
  'leak_detection_disabled',
  'leak_detection_timeout',
  // spec §4 autotest results, reboots (the reason in changed_fields), commands that did not happen.
  'autotest_none_detected',
  'autotest_succeeded',
  'autotest_some_skipped',
  'autotest_failed',
  'rebooted',
  'command_refused',
  'command_expired',
  // Billing (spec §4): a plan's new price, a plan archived instead of deleted, a subscription renewed.
  'price_changed',
  'archived',
  'renewed',
  // Scheduled closings (issue #8): a window's closing and its opening, run by the system; an
  // opening not sent (the zone locked by automatic closing, or another window still running).
  'scheduled_closing_started',
  'scheduled_closing_ended',
  'scheduled_opening_skipped',
  // Automatic closing (spec §4): settings saved, triggered (the water closed, the zone locked), exited.
  'automatic_closing_updated',
  'automatic_closing_triggered',
  'automatic_closing_exited',
  // Alerts (spec §4): opened by a cause, silenced, unsilenced, resolved by a user (origin web) or
  // when the cause clears (origin system); the category in changed_fields.
  'alert_opened',
  'alert_silenced',
  'alert_unsilenced',
  'alert_resolved',
  // docs/push.md "Snooze": a user held back their own pushes of the alert's category in its zone
  // (the category in changed_fields).
  'alert_snoozed',
  // "Was this you?" (issue 33): a person answered a leak or abnormal-use alert ("me" or "not_me"
  // in changed_fields).
  'alert_answered',
  'alert_escalated',
  // Away mode (issue 33, docs/automation.md "Away mode"): a period set (or changed) and switched
  // off by a resident or a manager; the water closed by the system for a flow while away.
  'away_mode_set',
  'away_mode_cleared',
  'away_closing',
  // spec §4 monitoring: a flowbox's temperature or humidity status changed (the new one in changed_fields).
  'temperature_status_changed',
  'humidity_status_changed',
  // Firmware catalogue (docs/firmware.md): an image uploaded is `created`, its release or notes
  // changed `updated` (the fields in changed_fields); its status moves on by these, never back.
  'deprecated',
  'withdrawn',
  // docs/firmware.md: each state an update of a flowbox reaches (the state, the version and the
  // reason in changed_fields), and a rollout's life (created, a further wave started, paused,
  // resumed, cancelled, halted with its reason in changed_fields, completed), its counts in
  // changed_fields as name=value (docs/firmware.md "Activity log").
  'firmware_update',
  'rollout_created',
  'rollout_wave_started',
  'rollout_paused',
  'rollout_resumed',
  'rollout_cancelled',
  'rollout_halted',
  'rollout_completed',
  // End users and plumbers (docs/permissions.md): an account suspended and reinstated; a
  // registration approved or refused by a manager (or approved by its claim code); a code revoked.
  'suspended',
  'reinstated',
  'approved',
  'refused',
  'revoked',
] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

export const EventSchema = z.object({
  id: z.uuid(),
  created_at: z.string(),
  action_name: z.enum(EVENT_ACTIONS),
  object_name: z.enum(EVENT_OBJECTS),
  object_id: z.uuid().nullable(),
  /** The object's name when the event happened, so a line stays readable after a deletion. */
  object_label: z.string(),
  user_id: z.uuid().nullable(),
  user_name: z.string().nullable(),
  origin: z.enum(EVENT_ORIGINS),
  customer_id: z.uuid().nullable(),
  site_id: z.uuid().nullable(),
  building_id: z.uuid().nullable(),
  zone_id: z.uuid().nullable(),
  /** The fields a change touched (names only, never values such as passwords). */
  changed_fields: z.array(z.string()),
});
export type ActivityEvent = z.infer<typeof EventSchema>;

export const EventsQuerySchema = z
  .object({
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int('validation.integer').min(1, 'validation.min_one').max(200).default(50),
    action_name: z.enum(EVENT_ACTIONS, 'validation.select').optional(),
    object_name: z.enum(EVENT_OBJECTS, 'validation.select').optional(),
    user_id: z.uuid('validation.invalid').optional(),
    origin: z.enum(EVENT_ORIGINS, 'validation.select').optional(),
    from: backendDate.optional(),
    to: backendDate.optional(),
  })
  // A filter, not an enumeration: a page costs its `limit` whatever the range (docs/reliability.md).
  .superRefine(checkDateRange(null));
export type EventsQuery = z.infer<typeof EventsQuerySchema>;

/** A page of events, newest first; `next_cursor` fetches the older ones (null at the end). */
export const EventsPageSchema = z.object({ items: z.array(EventSchema), next_cursor: z.string().nullable() });
export type EventsPage = z.infer<typeof EventsPageSchema>;
