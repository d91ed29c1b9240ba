import { z } from 'zod';
import { CountrySchema } from '../api/buildings.ts';
import { CURRENCIES } from './currencies.ts';
import { OffsetSchema } from '../api/errors.ts';
import { backendDate, normalizeDecimal, requiredText } from '../validation.ts';
import { rangeIssues } from './tiers.ts';
import { VOLUME_UNITS } from '../domain/buildings.ts';

/** spec §3 pricing plan: how often a subscription is billed and renewed. */
export const BILLING_TYPES = ['monthly', 'annual'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/** spec §3 acquisition type: how the customer came to hold the flowbox the plan is sold with. */
export const ACQUISITION_TYPES = ['acquisition', 'lifetime_fee', 'pay_as_you_go_fee'] as const;
export type AcquisitionType = (typeof ACQUISITION_TYPES)[number];

/** A zone's subscription is active until it is replaced by another choice, which ends it. */
export const SUBSCRIPTION_STATUSES = ['active', 'ended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** At most this many ranges in one price: enough for any tariff, small enough to edit. */
export const MAX_PRICE_RANGES = 20;

/** A volume in the plan's unit: up to 14 integer digits and 4 decimals (numeric(18,4)). */
export const VolumeSchema = z
  .string({ error: 'validation.volume' })
  .trim()
  .regex(/^\d{1,14}(\.\d{1,4})?$/, 'validation.volume')
  .transform(normalizeDecimal);

/** A price per unit: up to 12 integer digits and 6 decimals (numeric(18,6)), as 0.0035 per litre. */
export const UnitPriceSchema = z
  .string({ error: 'validation.unit_price' })
  .trim()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, 'validation.unit_price')
  .transform(normalizeDecimal);

export const PriceRangeSchema = z.object({
  volume_start: VolumeSchema,
  /** null: "No end limit" (only the last range). */
  volume_end: VolumeSchema.nullable(),
  price_per_unit: UnitPriceSchema,
});

/** spec §5 price ranges, checked here so the server and the form say the same thing in place. */
export const PriceRangesSchema = z
  .array(PriceRangeSchema, { error: 'validation.required' })
  .min(1, 'validation.required')
  .max(MAX_PRICE_RANGES, 'validation.max')
  .superRefine((ranges, ctx) => {
    for (const issue of rangeIssues(ranges))
      ctx.addIssue({ code: 'custom', path: [issue.index, issue.field], message: issue.message });
  });

/** spec §3 region: the countries (ISO 3166-1 alpha-2) whose buildings may subscribe to the plan. */
export const RegionsSchema = z
  .array(CountrySchema, { error: 'validation.required' })
  .min(1, 'validation.required')
  .max(250, 'validation.max')
  .refine((codes) => new Set(codes).size === codes.length, 'validation.unique');

/** The price terms of one version: what the "new price" flag starts afresh from its date. */
const priceTerms = {
  from_date: backendDate,
  billing_type: z.enum(BILLING_TYPES, 'validation.select'),
  acquisition_type: z.enum(ACQUISITION_TYPES, 'validation.select'),
  currency: z.enum(CURRENCIES, 'validation.select'),
  volume_unit: z.enum(VOLUME_UNITS, 'validation.select'),
  ranges: PriceRangesSchema,
};

export const PricingPlanCreateSchema = z.object({
  name: requiredText(),
  is_default: z.boolean({ error: 'validation.invalid' }).default(false),
  regions: RegionsSchema,
  ...priceTerms,
});
export type PricingPlanCreate = z.input<typeof PricingPlanCreateSchema>;

/**
 * Send only what changes. With `new_price` the current version is archived and a new one starts
 * on `from_date` (required, after the current one's) with the terms given, the others carried
 * over; without it the current version is corrected in place, which the server allows only while
 * no zone has subscribed (their past must keep its price).
 */
export const PricingPlanUpdateSchema = z
  .object({
    name: requiredText().optional(),
    is_default: z.boolean({ error: 'validation.invalid' }).optional(),
    regions: RegionsSchema.optional(),
    new_price: z.boolean({ error: 'validation.invalid' }).default(false),
    from_date: priceTerms.from_date.optional(),
    billing_type: priceTerms.billing_type.optional(),
    acquisition_type: priceTerms.acquisition_type.optional(),
    currency: priceTerms.currency.optional(),
    volume_unit: priceTerms.volume_unit.optional(),
    ranges: priceTerms.ranges.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.new_price && input.from_date === undefined)
      ctx.addIssue({ code: 'custom', path: ['from_date'], message: 'validation.required' });
  });
export type PricingPlanUpdate = z.input<typeof PricingPlanUpdateSchema>;

const PriceRangeAnswerSchema = z.object({
  volume_start: z.string(),
  volume_end: z.string().nullable(),
  price_per_unit: z.string(),
});

export const PricingPlanVersionSchema = z.object({
  version: z.number().int(),
  from_date: z.string(),
  /** The day the next version starts (this one's last day is the day before); null: current. */
  until_date: z.string().nullable(),
  archived_at: z.string().nullable(),
  billing_type: z.enum(BILLING_TYPES),
  acquisition_type: z.enum(ACQUISITION_TYPES),
  currency: z.enum(CURRENCIES),
  volume_unit: z.enum(VOLUME_UNITS),
  ranges: z.array(PriceRangeAnswerSchema),
  created_at: z.string(),
});
export type PricingPlanVersion = z.infer<typeof PricingPlanVersionSchema>;

/** A version's price terms and the day they start. */
export const PriceTermsSchema = PricingPlanVersionSchema.pick({
  from_date: true,
  currency: true,
  volume_unit: true,
  ranges: true,
});
export type PriceTerms = z.infer<typeof PriceTermsSchema>;

/**
 * The price terms in force on a day and the next ones, dated (issue 30: a coming price showed as if
 * it billed already, and the price in force without the coming one).
 */
export const PlanPricesSchema = z.object({
  current: PriceTermsSchema,
  upcoming: PriceTermsSchema.nullable(),
});
export type PlanPrices = z.infer<typeof PlanPricesSchema>;

const termsOf = ({ from_date, currency, volume_unit, ranges }: PriceTerms): PriceTerms => ({
  from_date,
  currency,
  volume_unit,
  ranges,
});

/** A plan's prices on `day` from its versions, newest first: the one in force, and the next one. */
export function pricesOn(versions: readonly PriceTerms[], day: string): PlanPrices {
  const current = versions.find((v) => v.from_date <= day) ?? versions.at(-1)!;
  const upcoming = versions.filter((v) => v.from_date > day).at(-1);
  return { current: termsOf(current), upcoming: upcoming ? termsOf(upcoming) : null };
}

/** A plan as answered: its latest version's terms at the top, every version (newest first) below. */
export const PricingPlanSchema = PricingPlanVersionSchema.omit({
  until_date: true,
  archived_at: true,
}).extend({
  id: z.uuid(),
  name: z.string(),
  is_default: z.boolean(),
  regions: z.array(z.string()),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  /** Zones whose subscription to this plan is active now. */
  subscription_count: z.number().int(),
  versions: z.array(PricingPlanVersionSchema),
});
export type PricingPlan = z.infer<typeof PricingPlanSchema>;

export const PricingPlanListQuerySchema = z.object({
  search: z.string().trim().max(120, 'validation.too_long').optional(),
  /** Archived plans are hidden unless asked for. */
  archived: z
    .enum(['true', 'false'], 'validation.select')
    .transform((v) => v === 'true')
    .default(false),
  limit: z.coerce.number().int('validation.integer').min(1, 'validation.min_one').max(500).default(100),
  offset: OffsetSchema,
});
