import { z } from 'zod';
import {
  ALL_FIRMWARE_UPDATE_STATES,
  FIRMWARE_FAILURE_REASONS,
  FIRMWARE_IMAGE_STATUSES,
  FIRMWARE_SKIP_REASONS,
  FIRMWARE_STATE_GROUPS,
  FIRMWARE_VERSION_PATTERN,
  ROLLOUT_DEFAULTS,
  ROLLOUT_HALT_REASONS,
  ROLLOUT_MAX_CONCURRENT,
  ROLLOUT_MAX_JITTER_S,
  ROLLOUT_MAX_WAVES,
  ROLLOUT_STATES,
} from '../firmware.ts';
import { optionalText, uuidField } from '../validation.ts';
import { FLOWBOX_MODELS } from '../domain/flowboxes.ts';

/**
 * Firmware catalogue, updates and rollouts (docs/firmware.md). Routes:
 * - `GET /v1/firmware/images` (FirmwareImagesQuery → { items: FirmwareImage[] }), `POST /v1/firmware/images`
 *   (multipart: `file` + the FirmwareImageCreateSchema fields as form fields; `models` repeated or
 *   comma-separated), `GET|PATCH /v1/firmware/images/{imageId}` (FirmwareImagePatchSchema).
 * - `GET /v1/firmware/download/{token}`: the device's download (HTTP Basic serial:secret, ranges).
 * - `GET /v1/customers/{c}/sites/{s}/buildings/{b}/zones/{z}/flowboxes/{f}/firmware` →
 *   FlowboxFirmware; `POST …/flowboxes/{f}/firmware` (FirmwareUpdateCreateSchema) → FirmwareUpdate.
 * - `GET /v1/firmware/rollouts` (RolloutsQuery → RolloutsPage), `POST /v1/firmware/rollouts`
 *   (RolloutCreateSchema) → Rollout, `GET /v1/firmware/rollouts/{rolloutId}` → Rollout,
 *   `GET /v1/firmware/rollouts/{rolloutId}/devices` (RolloutDevicesQuery → RolloutDevicesPage),
 *   `GET /v1/firmware/rollouts/{rolloutId}/timeline` → RolloutTimeline,
 *   `POST /v1/firmware/rollouts/{rolloutId}/{action}` with action pause | resume | cancel → Rollout.
 */

export const FirmwareVersionSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .regex(FIRMWARE_VERSION_PATTERN, 'validation.firmware_version');

const modelsField = z
  .array(z.enum(FLOWBOX_MODELS, { error: 'validation.select' }), { error: 'validation.required' })
  .min(1, 'validation.required')
  .max(FLOWBOX_MODELS.length, 'validation.invalid')
  .refine((m) => new Set(m).size === m.length, 'validation.invalid');

/**
 * Who may use an image besides the provider: every customer, or these. Always said: an upload
 * without it is refused rather than given to every customer (docs/firmware.md "Catalogue").
 */
export const FirmwareReleaseSchema = z.union(
  [z.literal('all'), z.array(uuidField).max(1000, 'validation.too_many')],
  { error: (issue) => (issue.input === undefined ? 'validation.required' : undefined) },
);
export type FirmwareRelease = z.infer<typeof FirmwareReleaseSchema>;

/** The form fields that come with an uploaded image. */
export const FirmwareImageCreateSchema = z.object({
  version: FirmwareVersionSchema,
  models: modelsField,
  notes_en: optionalText(4000),
  notes_fr: optionalText(4000),
  released_to: FirmwareReleaseSchema,
});
export type FirmwareImageCreateInput = z.input<typeof FirmwareImageCreateSchema>;

export const FirmwareImagePatchSchema = z
  .object({
    notes_en: optionalText(4000),
    notes_fr: optionalText(4000),
    released_to: FirmwareReleaseSchema,
    status: z.enum(FIRMWARE_IMAGE_STATUSES, { error: 'validation.select' }),
  })
  .partial();

export const FirmwareImagesQuerySchema = z.object({
  model: z.enum(FLOWBOX_MODELS, { error: 'validation.select' }).optional(),
  status: z.enum(FIRMWARE_IMAGE_STATUSES, { error: 'validation.select' }).optional(),
});

export const FirmwareImageSchema = z.object({
  id: z.uuid(),
  version: z.string(),
  models: z.array(z.enum(FLOWBOX_MODELS)),
  file_name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  notes_en: z.string().nullable(),
  notes_fr: z.string().nullable(),
  status: z.enum(FIRMWARE_IMAGE_STATUSES),
  /** Provider managers only see the list; others see `all` or their own customer. */
  released_to: FirmwareReleaseSchema,
  uploaded_at: z.string(),
  uploaded_by_name: z.string().nullable(),
  /** Devices running this version now, within the caller's scope. */
  installed_count: z.number().int(),
});
export type FirmwareImage = z.infer<typeof FirmwareImageSchema>;

export const FirmwareUpdateCreateSchema = z.object({
  image_id: uuidField,
  /** Start it even while the flowbox's building is open (refused then by default, docs/firmware.md). */
  during_opening_hours: z.boolean().default(false),
});
export type FirmwareUpdateCreateInput = z.input<typeof FirmwareUpdateCreateSchema>;

/** One state an update went through (its history, spec §4 plus the server's own). */
export const FirmwareUpdateStepSchema = z.object({
  state: z.enum(ALL_FIRMWARE_UPDATE_STATES),
  at: z.string(),
  progress_pct: z.number().nullable(),
  /** A failure or skip reason, when there is one. */
  reason: z.enum([...FIRMWARE_FAILURE_REASONS, ...FIRMWARE_SKIP_REASONS]).nullable(),
});

export const FirmwareUpdateSchema = z.object({
  id: z.uuid(),
  flowbox_id: z.uuid(),
  serial: z.string(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  building_id: z.uuid(),
  zone_id: z.uuid(),
  image_id: z.uuid(),
  rollout_id: z.uuid().nullable(),
  /** 1-based wave of its rollout. */
  wave: z.number().int().nullable(),
  from_version: z.string().nullable(),
  target_version: z.string(),
  state: z.enum(ALL_FIRMWARE_UPDATE_STATES),
  reason: z.enum([...FIRMWARE_FAILURE_REASONS, ...FIRMWARE_SKIP_REASONS]).nullable(),
  progress_pct: z.number().nullable(),
  /** When a scheduled device may start (its random start delay). */
  start_after: z.string().nullable(),
  created_at: z.string(),
  state_changed_at: z.string(),
  finished_at: z.string().nullable(),
  requested_by_name: z.string().nullable(),
  steps: z.array(FirmwareUpdateStepSchema),
});
export type FirmwareUpdate = z.infer<typeof FirmwareUpdateSchema>;

/** The flowbox page's firmware card: its versions, what it may be updated to, its history. */
export const FlowboxFirmwareSchema = z.object({
  model: z.enum(FLOWBOX_MODELS).nullable(),
  versions: z.object({
    esp: z.string().nullable(),
    board: z.string().nullable(),
    firmware: z.string().nullable(),
  }),
  /** Images that fit its model, released to its customer, not withdrawn, other than its version. */
  compatible: z.array(FirmwareImageSchema),
  /** The unfinished update, if one runs. */
  current: FirmwareUpdateSchema.nullable(),
  /** Newest first, at most 20. */
  history: z.array(FirmwareUpdateSchema),
});
export type FlowboxFirmware = z.infer<typeof FlowboxFirmwareSchema>;

/** What a rollout runs over: one place of the hierarchy (or the whole fleet, provider only). */
export const RolloutTargetSchema = z
  .object({
    customer_id: uuidField.optional(),
    site_id: uuidField.optional(),
    building_id: uuidField.optional(),
    zone_id: uuidField.optional(),
  })
  .refine((t) => !t.site_id || t.customer_id, { path: ['customer_id'], message: 'validation.required' })
  .refine((t) => !t.building_id || t.site_id, { path: ['site_id'], message: 'validation.required' })
  .refine((t) => !t.zone_id || t.building_id, { path: ['building_id'], message: 'validation.required' });

const pct = z.number({ error: 'validation.number' }).min(0.1, 'validation.min').max(100, 'validation.max');

export const RolloutCreateSchema = z.object({
  image_id: uuidField,
  target: RolloutTargetSchema,
  /** Only devices on one of these versions (any when absent). */
  from_versions: z.array(FirmwareVersionSchema).max(50, 'validation.too_many').optional(),
  /** Only these models (the image's models when absent; a model the image does not fit is refused). */
  models: modelsField.optional(),
  /** Cumulative percentages, increasing; the last is 100 (added when missing). */
  waves_pct: z
    .array(pct)
    .min(1, 'validation.required')
    .max(ROLLOUT_MAX_WAVES, 'validation.too_many')
    .refine((w) => w.every((v, i) => i === 0 || v > (w[i - 1] ?? 0)), 'validation.increasing')
    .default([...ROLLOUT_DEFAULTS.wavesPct]),
  start_jitter_s: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(0, 'validation.min')
    .max(ROLLOUT_MAX_JITTER_S, 'validation.max')
    .default(ROLLOUT_DEFAULTS.startJitterS),
  max_concurrent: z
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1, 'validation.min_one')
    .max(ROLLOUT_MAX_CONCURRENT, 'validation.max')
    .default(ROLLOUT_DEFAULTS.maxConcurrent),
  failure_threshold_pct: z
    .number({ error: 'validation.number' })
    .min(0, 'validation.min')
    .max(100, 'validation.max')
    .default(ROLLOUT_DEFAULTS.failureThresholdPct),
  during_opening_hours: z.boolean().default(ROLLOUT_DEFAULTS.duringOpeningHours),
});
export type RolloutCreateInput = z.input<typeof RolloutCreateSchema>;

export const ROLLOUT_ACTIONS = ['pause', 'resume', 'cancel'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

const stateCounts = z.record(z.enum(ALL_FIRMWARE_UPDATE_STATES), z.number().int());

export const RolloutWaveSchema = z.object({
  wave: z.number().int(),
  size: z.number().int(),
  counts: stateCounts,
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const RolloutSchema = z.object({
  id: z.uuid(),
  image_id: z.uuid(),
  version: z.string(),
  /** The place it runs over, named for display. */
  target: z.object({
    customer_id: z.uuid().nullable(),
    site_id: z.uuid().nullable(),
    building_id: z.uuid().nullable(),
    zone_id: z.uuid().nullable(),
    label: z.string(),
  }),
  state: z.enum(ROLLOUT_STATES),
  halt_reason: z.enum(ROLLOUT_HALT_REASONS).nullable(),
  waves_pct: z.array(z.number()),
  start_jitter_s: z.number().int(),
  max_concurrent: z.number().int(),
  failure_threshold_pct: z.number(),
  during_opening_hours: z.boolean(),
  /** The wave now running (1-based), or the last one. */
  current_wave: z.number().int(),
  total: z.number().int(),
  counts: stateCounts,
  waves: z.array(RolloutWaveSchema),
  created_at: z.string(),
  created_by_name: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Rollout = z.infer<typeof RolloutSchema>;

export const RolloutsQuerySchema = z.object({
  state: z.enum(ROLLOUT_STATES, { error: 'validation.select' }).optional(),
  cursor: z.string().max(200).optional(),
});
export const RolloutsPageSchema = z.object({
  items: z.array(RolloutSchema),
  next_cursor: z.string().nullable(),
});

export const RolloutDevicesQuerySchema = z.object({
  state: z.enum(ALL_FIRMWARE_UPDATE_STATES, { error: 'validation.select' }).optional(),
  wave: z.coerce
    .number({ error: 'validation.number' })
    .int('validation.integer')
    .min(1)
    .max(ROLLOUT_MAX_WAVES)
    .optional(),
  cursor: z.string().max(200).optional(),
});
export const RolloutDevicesPageSchema = z.object({
  items: z.array(
    FirmwareUpdateSchema.omit({ steps: true }).extend({ last_message_at: z.string().nullable() }),
  ),
  next_cursor: z.string().nullable(),
});

/**
 * A rollout's devices per state group over its whole life (docs/firmware.md "Rollout page"), from
 * its devices' steps: a point each time the counts changed, at most ROLLOUT_TIMELINE_MAX_POINTS
 * (a long rollout's changes are thinned to the last of each time slice), oldest first; the last
 * point is now for a rollout not over. `counts` follow FIRMWARE_STATE_GROUPS' order.
 */
export const RolloutTimelineSchema = z.object({
  groups: z.array(z.enum(FIRMWARE_STATE_GROUPS)),
  points: z.array(z.object({ at: z.string(), counts: z.array(z.number().int()) })),
});
export type RolloutTimeline = z.infer<typeof RolloutTimelineSchema>;
