import { z } from 'zod';
import { ALERT_CATEGORIES, alertSeverity, type AlertCategory } from '../alerts.ts';
import { LANGUAGES } from '../roles.ts';

/*
 * Web Push (issue 33, docs/push.md): a signed-in user's browsers subscribe with the server's VAPID
 * public key; critical alerts reach them through their vendors' push services.
 */

/**
 * The categories pushed to the phone (issue 33): automatic closing, burst or abnormal consumption,
 * leak (continuous flow), and a flowbox's dysfunction (a valve that did not confirm its closing, a
 * failed autotest): each one a person may have to act on within minutes.
 */
export const PUSHED_ALERT_CATEGORIES: readonly AlertCategory[] = ALERT_CATEGORIES.filter(
  (category) => alertSeverity(category) === 'critical',
);

/** RFC 8030 §5.3; alerts go `high`. */
export const PUSH_URGENCIES = ['very-low', 'low', 'normal', 'high'] as const;
export type PushUrgency = (typeof PUSH_URGENCIES)[number];

export const PUSH_MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type PushMessageStatus = (typeof PUSH_MESSAGE_STATUSES)[number];

/** A push service's address is a capability URL; browsers' are far shorter. */
export const PUSH_ENDPOINT_MAX = 2000;

/** base64url of exactly `bytes` bytes (padding tolerated, as some browsers send it). */
function base64UrlOf(bytes: number) {
  const length = Math.ceil((bytes * 4) / 3);
  return z
    .string({ error: 'validation.required' })
    .regex(new RegExp(`^[A-Za-z0-9_-]{${length}}={0,2}$`), 'validation.push_key');
}

export const PushKeySchema = z.object({
  /** The server's VAPID public key (base64url, an uncompressed P-256 point): `applicationServerKey`. */
  public_key: z.string(),
});
export type PushKey = z.infer<typeof PushKeySchema>;

/** The endpoint as the browser's PushSubscription gives it: an https URL (http only in the server's tests). */
export const PushEndpointSchema = z
  .string({ error: 'validation.required' })
  .max(PUSH_ENDPOINT_MAX, 'validation.too_long')
  .refine((value) => {
    try {
      return ['https:', 'http:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'validation.push_endpoint');

/** `PushSubscription.toJSON()` of the browser, its `expirationTime` ignored, and an optional label. */
export const PushSubscribeSchema = z.object({
  endpoint: PushEndpointSchema,
  keys: z.object(
    {
      /** The browser's P-256 public key, uncompressed (65 bytes). */
      p256dh: base64UrlOf(65),
      /** The browser's authentication secret (16 bytes). */
      auth: base64UrlOf(16),
    },
    { error: 'validation.required' },
  ),
  /** Which browser, as the user would name it; the request's User-Agent when absent. */
  label: z.string().trim().max(120, 'validation.too_long').optional(),
});
export type PushSubscribe = z.infer<typeof PushSubscribeSchema>;

export const PushUnsubscribeSchema = z.object({ endpoint: PushEndpointSchema });
export type PushUnsubscribe = z.infer<typeof PushUnsubscribeSchema>;

/** One of the caller's browsers, without its keys. */
export const PushSubscriptionSchema = z.object({
  id: z.uuid(),
  endpoint: z.string(),
  label: z.string(),
  created_at: z.string(),
  last_success_at: z.string().nullable(),
  failure_count: z.number().int(),
});
export type PushSubscriptionInfo = z.infer<typeof PushSubscriptionSchema>;

/** What a notification offers (issue 33): close the water, "it's me" (a known use), snooze 1 h. */
export const PUSH_ALERT_ACTIONS = ['close_water', 'its_me', 'snooze_1h'] as const;
export type PushAlertAction = (typeof PUSH_ALERT_ACTIONS)[number];

/** The JSON a browser decrypts from an alert's push message; the service worker shows it. */
export const PushAlertPayloadSchema = z.object({
  type: z.literal('alert'),
  alert_id: z.uuid(),
  category: z.string(),
  zone: z.object({ id: z.uuid(), name: z.string(), building: z.string() }),
  /** Critical (docs/alerts.md): the notification stays on screen until the person acts on it. */
  critical: z.boolean(),
  /** The recipient's language, in which the service worker says what became of an action. */
  language: z.enum(LANGUAGES),
  /** In the recipient's language, units and the building's time zone. */
  title: z.string(),
  body: z.string(),
  actions: z.array(z.object({ action: z.enum(PUSH_ALERT_ACTIONS), title: z.string() })),
  /** The page to open on a tap. */
  url: z.string(),
  /** When the alert opened (ISO 8601). */
  opened_at: z.string(),
});
export type PushAlertPayload = z.infer<typeof PushAlertPayloadSchema>;

/**
 * "Snooze 1 h" from a notification (docs/push.md "Snooze"): no more pushes to the caller of the
 * alert's kind in its zone for these minutes; from a quarter of an hour to a day.
 */
export const PUSH_SNOOZE_MINUTES = { min: 15, max: 1440 } as const;

export const AlertSnoozeSchema = z.object({
  minutes: z
    .number({ error: 'validation.required' })
    .int('validation.integer')
    .min(PUSH_SNOOZE_MINUTES.min, 'validation.min')
    .max(PUSH_SNOOZE_MINUTES.max, 'validation.max'),
});
export type AlertSnooze = z.infer<typeof AlertSnoozeSchema>;

/** What a snooze holds back: the caller's pushes of this category in this zone, until `until`. */
export const PushSnoozeSchema = z.object({
  alert_id: z.uuid(),
  zone_id: z.uuid(),
  category: z.string(),
  until: z.string(),
});
export type PushSnooze = z.infer<typeof PushSnoozeSchema>;
