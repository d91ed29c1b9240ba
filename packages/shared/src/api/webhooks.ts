import { z } from 'zod';

/*
 * Webhooks of a customer (issue 33, docs/webhooks.md): what happens to its alerts and valves,
 * POSTed as signed JSON to the addresses its managers give.
 */

/**
 * What a webhook may be told of: an alert opened or resolved (by a user, or its cause cleared), a
 * valve closed or opened (from the web, a schedule or automatic closing, or by hand on the device),
 * and automatic closing triggered or exited. `webhook.test` is only ever sent by "send a test event".
 */
export const WEBHOOK_EVENT_TYPES = [
  'alert.opened',
  'alert.resolved',
  'valve.closed',
  'valve.opened',
  'automatic_closing.triggered',
  'automatic_closing.exited',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookPayloadType = WebhookEventType | 'webhook.test';

export const WEBHOOK_DELIVERY_STATUSES = ['queued', 'sending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A customer's webhooks at most: each event is one request a webhook. */
export const WEBHOOKS_PER_CUSTOMER_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;

/**
 * An http(s) URL. The server takes https to a public address only (docs/webhooks.md "Where a
 * webhook may point": checked, resolved, when saved and at each delivery); http in its own tests.
 */
export const WebhookUrlSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .max(WEBHOOK_URL_MAX, 'validation.too_long')
  .refine((value) => {
    try {
      const url = new URL(value);
      return ['https:', 'http:'].includes(url.protocol) && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'validation.webhook_url');

const EventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, 'validation.select'), { error: 'validation.required' })
  .min(1, 'validation.webhook_events')
  .max(WEBHOOK_EVENT_TYPES.length, 'validation.too_many')
  .refine((list) => new Set(list).size === list.length, 'validation.unique');

const DescriptionSchema = z.string().trim().max(200, 'validation.too_long');

export const WebhookCreateSchema = z.object({
  url: WebhookUrlSchema,
  events: EventsSchema,
  description: DescriptionSchema.optional(),
  enabled: z.boolean('validation.invalid').optional(),
});
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = z.object({
  url: WebhookUrlSchema.optional(),
  events: EventsSchema.optional(),
  description: DescriptionSchema.optional(),
  /** Enabling again starts its failure count afresh. */
  enabled: z.boolean('validation.invalid').optional(),
});
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;

/** A webhook as listed: never its secret, which is shown once, at creation and at each rotation. */
export const WebhookSchema = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** "failures" when the server disabled it after repeated failures (docs/webhooks.md "Disabling"). */
  disabled_reason: z.enum(['failures']).nullable(),
  /** Deliveries failed for good since the last one delivered. */
  consecutive_failures: z.number().int(),
  /** The first failed try since the last delivery; null while it delivers. */
  failing_since: z.iso.datetime().nullable(),
  last_success_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** Creation and rotation answer the secret, `whsec_` and 43 base64url characters, this once. */
export const WebhookWithSecretSchema = WebhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecretSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  /** The event's id, the same in every try and for every webhook: receivers de-duplicate on it. */
  event_id: z.uuid(),
  event_type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's last HTTP status; null when it never answered. */
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.iso.datetime(),
  last_attempt_at: z.iso.datetime().nullable(),
  /** When it is tried again (queued), null once delivered or failed. */
  next_attempt_at: z.iso.datetime().nullable(),
  delivered_at: z.iso.datetime().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveriesQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int('validation.integer').min(1, 'validation.min_one').max(100).default(25),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuerySchema>;

/** Newest first; `next_cursor` fetches older ones (null at the end). */
export const WebhookDeliveriesPageSchema = z.object({
  items: z.array(WebhookDeliverySchema),
  next_cursor: z.string().nullable(),
});
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPageSchema>;

/** What a receiver gets (docs/webhooks.md "Payloads"). */
export type WebhookPayload = {
  id: string;
  type: WebhookPayloadType;
  created_at: string;
  customer_id: string;
  data: Record<string, unknown>;
};

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Flowbox-Signature';
/** How old a signature's `t` a receiver should accept at most (replays). */
export const WEBHOOK_TOLERANCE_S = 300;
