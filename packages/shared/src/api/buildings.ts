import { z } from 'zod';
import { CURRENCIES } from '../billing/currencies.ts';
import { VOLUME_UNITS, WEEKDAYS, type Weekday } from '../domain/buildings.ts';
import { countField, decimalString, requiredText } from '../validation.ts';
import { checkCoordinatePair, coordinateFields } from './coordinates.ts';

/** spec §3, spelled exactly as the spec spells them (including "accomodation" and "governement"). */
export const BUILDING_TYPES = [
  'no-type',
  'factory',
  'staff-accomodation',
  'residential',
  'commercial',
  'villa',
  'apartment',
  'holiday-home',
  'hotel',
  'office',
  'school',
  'shopping',
  'governement',
  'sports',
  'irrigation',
  'restaurant',
  'mass-catering',
] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number];

export { CURRENCIES, type Currency } from '../billing/currencies.ts';

export const MAX_INTERVALS_PER_DAY = 6;

const START = /^([01]\d|2[0-3]):[0-5]\d$/;
/** An interval may run until midnight, written 24:00. */
const END = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const startTime = z.string({ error: 'validation.time' }).regex(START, 'validation.time');
const endTime = z.string({ error: 'validation.time' }).regex(END, 'validation.time');

/** One open interval of a day, in the building's local time ("08:00" to "12:30"). */
export const OpeningIntervalSchema = z
  .object({ start: startTime, end: endTime })
  // Times are compared only once both are well written (HH:mm sorts as text).
  .refine((i) => !START.test(i.start) || !END.test(i.end) || i.end > i.start, {
    message: 'validation.hours_order',
    path: ['end'],
  });

const daySchema = z
  .array(OpeningIntervalSchema, { error: 'validation.invalid' })
  .max(MAX_INTERVALS_PER_DAY, 'validation.max')
  .superRefine((intervals, ctx) => {
    const sorted = intervals.map((interval, index) => ({ ...interval, index }));
    sorted.sort((a, b) => a.start.localeCompare(b.start));
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.start < sorted[i - 1]!.end) {
        ctx.addIssue({ code: 'custom', message: 'validation.hours_overlap', path: [sorted[i]!.index] });
      }
    }
  })
  .transform((intervals) => [...intervals].sort((a, b) => a.start.localeCompare(b.start)));

/**
 * Opening hours: for each weekday, the open intervals in order (a day left out or empty is closed).
 * The answer always names the seven days.
 */
export const OpeningHoursSchema = z.object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, daySchema.default([])])) as Record<
    Weekday,
    z.ZodDefault<typeof daySchema>
  >,
  { error: 'validation.invalid' },
);

/** The answer's shape of opening hours (already checked and sorted). */
export const OpeningHoursAnswerSchema = z.object(
  Object.fromEntries(
    WEEKDAYS.map((day) => [day, z.array(z.object({ start: z.string(), end: z.string() }))]),
  ) as Record<Weekday, z.ZodArray<z.ZodObject<{ start: z.ZodString; end: z.ZodString }>>>,
);

/** An IANA time zone that this runtime knows ("Europe/Paris"), answered in its canonical spelling. */
export function canonicalTimezone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const TimezoneSchema = z
  .string({ error: 'validation.timezone' })
  .trim()
  .max(64, 'validation.timezone')
  .refine((name) => canonicalTimezone(name) !== undefined, 'validation.timezone')
  .transform((name) => canonicalTimezone(name)!);

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** ISO 3166-1 alpha-2 country code ("FR", "CH"), a select in the forms. */
export const CountrySchema = z
  .string({ error: 'validation.select' })
  .trim()
  .toUpperCase()
  .refine((code) => {
    if (!/^[A-Z]{2}$/.test(code)) return false;
    const name = regionNames.of(code);
    return name !== undefined && name !== 'Unknown Region';
  }, 'validation.select');

/** Price of one volume unit in the building's currency, as an exact decimal string. */
export const PriceSchema = decimalString;

const weekendSchema = z
  .array(z.enum(WEEKDAYS, 'validation.select'), { error: 'validation.invalid' })
  .max(WEEKDAYS.length, 'validation.max')
  .refine((days) => new Set(days).size === days.length, 'validation.unique');

/**
 * A building (spec §3). Mandatory to save (spec §5 "a building save needs all mandatory fields"):
 * name, type, address, city, zipCode, country, timezone, volume_unit, currency and first_day_of_week.
 * The counts, opening hours, weekend (default Saturday and Sunday) and price per unit are optional.
 */
const BuildingFieldsSchema = z.object({
  name: requiredText(),
  type: z.enum(BUILDING_TYPES, 'validation.select'),
  address: requiredText(200),
  city: requiredText(),
  zipCode: requiredText(20),
  country: CountrySchema,
  nbfloor: countField(300).nullable().optional(),
  occupants: countField(1_000_000).nullable().optional(),
  nbequipment: countField(1_000_000).nullable().optional(),
  opening_hours: OpeningHoursSchema.nullable().optional(),
  timezone: TimezoneSchema,
  volume_unit: z.enum(VOLUME_UNITS, 'validation.select'),
  currency: z.enum(CURRENCIES, 'validation.select'),
  first_day_of_week: z.enum(WEEKDAYS, 'validation.select'),
  weekend: weekendSchema.optional(),
  price_per_unit: PriceSchema.nullable().optional(),
  ...coordinateFields,
});
export const BuildingCreateSchema = BuildingFieldsSchema.superRefine(checkCoordinatePair);
export type BuildingCreateInput = z.input<typeof BuildingCreateSchema>;
export const BuildingUpdateSchema = BuildingFieldsSchema.partial().superRefine(checkCoordinatePair);
export type BuildingUpdateInput = z.input<typeof BuildingUpdateSchema>;

export const BuildingSchema = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  site_id: z.uuid(),
  name: z.string(),
  type: z.enum(BUILDING_TYPES),
  /** URL paths of the uploaded images (GET /v1/images/{id}), or null. */
  plan: z.string().nullable(),
  picture: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  zipCode: z.string(),
  country: z.string(),
  nbfloor: z.number().int().nullable(),
  occupants: z.number().int().nullable(),
  nbequipment: z.number().int().nullable(),
  opening_hours: OpeningHoursAnswerSchema.nullable(),
  timezone: z.string(),
  volume_unit: z.enum(VOLUME_UNITS),
  currency: z.enum(CURRENCIES),
  first_day_of_week: z.enum(WEEKDAYS),
  weekend: z.array(z.enum(WEEKDAYS)),
  price_per_unit: z.string().nullable(),
  /** WGS84 degrees (docs/maps.md); null: not placed on the map. */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Floors and zones recorded under the building (nbfloor is what the manager declares). */
  floor_count: z.number().int(),
  zone_count: z.number().int(),
  created_at: z.string(),
});
export type Building = z.infer<typeof BuildingSchema>;

/** spec §3 floor: a label and its occupants; the paired flowbox comes with the devices issue. */
export const FloorCreateSchema = z.object({
  label: requiredText(),
  occupants: countField(1_000_000).nullable().optional(),
});
export type FloorCreateInput = z.input<typeof FloorCreateSchema>;
export const FloorUpdateSchema = FloorCreateSchema.partial();
export type FloorUpdateInput = z.input<typeof FloorUpdateSchema>;

/** A flowbox paired on a floor (spec §3 floor "paired flowbox"), with the zone it serves. */
export const FloorFlowboxSchema = z.object({
  id: z.uuid(),
  serial: z.string(),
  zone_id: z.uuid(),
  zone_name: z.string(),
});
export type FloorFlowbox = z.infer<typeof FloorFlowboxSchema>;

export const FloorSchema = z.object({
  id: z.uuid(),
  building_id: z.uuid(),
  label: z.string(),
  occupants: z.number().int().nullable(),
  /** The flowboxes paired on this floor (pairing finished), by serial; empty when none is. */
  flowboxes: z.array(FloorFlowboxSchema),
  created_at: z.string(),
});
export type Floor = z.infer<typeof FloorSchema>;

/** What an image upload answers: the URL path now stored in the record's field. */
export const ImageAnswerSchema = z.object({ url: z.string() });
export type ImageAnswer = z.infer<typeof ImageAnswerSchema>;

export const BUILDING_IMAGE_KINDS = ['plan', 'picture'] as const;
export const SITE_IMAGE_KINDS = ['logo', 'plan'] as const;
