import { z } from 'zod';
import { ConfirmNameSchema } from '../api/errors.ts';
import { VOLUME_UNITS, type VolumeUnit } from '../domain/buildings.ts';

/*
 * Automatic closing (spec §3 "automatic-closing settings", §4, §5, §9; docs/automation.md).
 * The margins are the zone's; the server converts the volume margin to litres with the unit it was
 * entered in, so a margin keeps its meaning if the building's unit changes later.
 */

/**
 * spec §5 "the volume margin lies between a minimum and a maximum in the billing unit" (bounds not
 * shown): about 10 L to 100 m³ in round numbers of each unit. Below 10 L a single toilet flush
 * would close the water; above 100 m³ the margin protects nothing a building could hold.
 */
export const VOLUME_MARGIN_BOUNDS: Record<VolumeUnit, { min: number; max: number }> = {
  liter: { min: 10, max: 100_000 },
  m3: { min: 0.01, max: 100 },
  gallon: { min: 3, max: 26_000 },
  imperial_gallon: { min: 2, max: 22_000 },
};

/** spec §5 duration margin in minutes: from 5 minutes (a long shower) to a day. */
export const DURATION_MARGIN_BOUNDS = { min: 5, max: 1440 } as const;

/** At most 4 decimals, like every volume of the product (m³ to the litre and below). */
const VOLUME_DECIMALS = 4;

/** A missing flag is required; a flag of another type is invalid (the catalogue tells them apart). */
const flag = z.boolean({ error: 'validation.required' });

/**
 * The settings a user saves. A margin's value is kept while it is disabled (the form remembers it);
 * an enabled margin needs a value, and automatic closing needs at least one enabled margin (spec §5).
 */
export const AutomaticClosingSettingsSchema = z
  .object({
    automatic_closing_enabled: flag,
    volume_margin_enabled: flag,
    volume_margin: z
      .number({ error: 'validation.required' })
      .positive('validation.positive')
      .refine(hasAtMostDecimals, 'validation.volume')
      .nullable(),
    duration_margin_enabled: flag,
    duration_margin_minutes: z
      .number({ error: 'validation.required' })
      .int('validation.integer')
      .min(DURATION_MARGIN_BOUNDS.min, 'validation.min')
      .max(DURATION_MARGIN_BOUNDS.max, 'validation.max')
      .nullable(),
  })
  .superRefine((s, ctx) => {
    if (s.volume_margin_enabled && s.volume_margin === null)
      ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['volume_margin'] });
    if (s.duration_margin_enabled && s.duration_margin_minutes === null)
      ctx.addIssue({ code: 'custom', message: 'validation.required', path: ['duration_margin_minutes'] });
    if (s.automatic_closing_enabled && !s.volume_margin_enabled && !s.duration_margin_enabled)
      ctx.addIssue({
        code: 'custom',
        message: 'validation.margin_required',
        path: ['automatic_closing_enabled'],
      });
  });
export type AutomaticClosingSettings = z.output<typeof AutomaticClosingSettingsSchema>;
export type AutomaticClosingSettingsInput = z.input<typeof AutomaticClosingSettingsSchema>;

function hasAtMostDecimals(value: number): boolean {
  const [, decimals = ''] = String(value).split('.');
  return decimals.length <= VOLUME_DECIMALS && !String(value).includes('e');
}

/** The volume margin's bounds in a unit, or null when the value lies within them. */
export function volumeMarginOutOfBounds(
  value: number,
  unit: VolumeUnit,
): { min: number; max: number } | null {
  const bounds = VOLUME_MARGIN_BOUNDS[unit];
  return value < bounds.min || value > bounds.max ? bounds : null;
}

/** What triggered automatic closing: the event's volume or its duration went past its margin. */
export const TRIGGERS = ['volume', 'duration'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The continuous-flow event under way in a zone, as the detector sees it. */
export const FlowEventSchema = z.object({
  started_at: z.string(),
  last_flow_at: z.string(),
  volume_l: z.number(),
  flow_minutes: z.number(),
});

/** A zone's automatic closing: its settings, whether it is locked, and detection's state (spec §4). */
export const AutomationSchema = z.object({
  zone_id: z.uuid(),
  automatic_closing_enabled: z.boolean(),
  volume_margin_enabled: z.boolean(),
  /** In `volume_unit`, the building's billing unit. */
  volume_margin: z.number().nullable(),
  duration_margin_enabled: z.boolean(),
  duration_margin_minutes: z.number().int().nullable(),
  volume_unit: z.enum(VOLUME_UNITS),
  volume_margin_bounds: z.object({ min: z.number(), max: z.number() }),
  duration_margin_bounds: z.object({ min: z.number(), max: z.number() }),
  /** spec §4 "triggered": the water was closed and every action on the zone is refused. */
  locked: z.boolean(),
  locked_at: z.string().nullable(),
  locked_by: z.enum(TRIGGERS).nullable(),
  /** When the device confirmed the safety close; null while it has not. */
  close_confirmed_at: z.string().nullable(),
  /** spec §9: abnormal-volume detection is blocked for an hour after exit. */
  detection_blocked_until: z.string().nullable(),
  event: FlowEventSchema.nullable(),
});
export type Automation = z.infer<typeof AutomationSchema>;

/** spec §5: exiting automatic closing needs the zone's name typed. */
export const AutomaticClosingExitSchema = ConfirmNameSchema;
