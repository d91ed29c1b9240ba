import {
  normalizeDecimal,
  PricingPlanCreateSchema,
  type AcquisitionType,
  type BillingType,
  type Currency,
  type PricingPlan,
  type PricingPlanCreate,
  type PricingPlanUpdate,
  type VolumeUnit,
} from '@flowbox/shared';
import { decimalText } from '../../lib/form-values.ts';

/** One row of the ranges editor: text as typed, and the "No end limit" box. */
export type RangeRow = { volume_start: string; volume_end: string; no_end: boolean; price_per_unit: string };

/** What the plan form edits: text as typed; `toPlanInput` turns it into the API's shape. */
export type PlanFormValues = {
  name: string;
  is_default: boolean;
  regions: string;
  billing_type: BillingType;
  acquisition_type: AcquisitionType;
  currency: Currency;
  volume_unit: VolumeUnit;
  from_date: string;
  new_price: boolean;
  ranges: RangeRow[];
};

export type FieldProblem = { field: string; message: string };

export const emptyRange = (start = ''): RangeRow => ({
  volume_start: start,
  volume_end: '',
  no_end: true,
  price_per_unit: '',
});

export function planFormValues(plan: PricingPlan | undefined, today: string): PlanFormValues {
  if (!plan)
    return {
      name: '',
      is_default: false,
      regions: '',
      billing_type: 'monthly',
      acquisition_type: 'acquisition',
      currency: 'EUR',
      volume_unit: 'm3',
      from_date: today,
      new_price: false,
      ranges: [emptyRange('0')],
    };
  return {
    name: plan.name,
    is_default: plan.is_default,
    regions: plan.regions.join(', '),
    billing_type: plan.billing_type,
    acquisition_type: plan.acquisition_type,
    currency: plan.currency,
    volume_unit: plan.volume_unit,
    from_date: plan.from_date,
    new_price: false,
    ranges: plan.ranges.map((r) => ({
      volume_start: r.volume_start,
      volume_end: r.volume_end ?? '',
      no_end: r.volume_end === null,
      price_per_unit: r.price_per_unit,
    })),
  };
}

/** The form as the API takes it: "No end limit" is a null end, countries a list. */
export function toPlanInput(values: PlanFormValues): PricingPlanCreate {
  return {
    name: values.name,
    is_default: values.is_default,
    regions: values.regions
      .split(/[\s,;]+/)
      .map((code) => code.trim())
      .filter(Boolean),
    billing_type: values.billing_type,
    acquisition_type: values.acquisition_type,
    currency: values.currency,
    volume_unit: values.volume_unit,
    from_date: values.from_date,
    ranges: values.ranges.map((row) => ({
      volume_start: decimalText(row.volume_start),
      volume_end: row.no_end ? null : decimalText(row.volume_end),
      price_per_unit: decimalText(row.price_per_unit),
    })),
  };
}

/**
 * The shared schema's issues (spec §5 range rules included) as catalogue keys on the form's fields,
 * so each range shows its own problem in place, as the server would say it.
 */
export function planProblems(values: PlanFormValues): FieldProblem[] {
  const result = PricingPlanCreateSchema.safeParse(toPlanInput(values));
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const [first, index, field] = issue.path.map(String);
    const where =
      first === 'ranges' && index !== undefined ? `ranges.${index}.${field ?? 'volume_start'}` : first;
    return { field: where ?? 'name', message: issue.message };
  });
}

const TERMS = ['from_date', 'billing_type', 'acquisition_type', 'currency', 'volume_unit', 'ranges'] as const;

/**
 * An edit sends the plan's own fields and only the price terms that changed: a plan in use takes
 * price changes only as a new price (docs/billing.md), so unchanged terms must not be sent.
 */
export function toPlanUpdate(plan: PricingPlan, values: PlanFormValues): PricingPlanUpdate {
  const input = toPlanInput(values);
  const current: Record<(typeof TERMS)[number], unknown> = {
    from_date: plan.from_date,
    billing_type: plan.billing_type,
    acquisition_type: plan.acquisition_type,
    currency: plan.currency,
    volume_unit: plan.volume_unit,
    ranges: plan.ranges,
  };
  const update: PricingPlanUpdate = {
    name: input.name,
    is_default: input.is_default,
    regions: input.regions,
    new_price: values.new_price,
  };
  for (const term of TERMS) {
    const same = JSON.stringify(normalised(input[term])) === JSON.stringify(normalised(current[term]));
    if (values.new_price || !same) Object.assign(update, { [term]: input[term] });
  }
  return update;
}

/** "2.50" and "2.5" are the same price. */
function normalised(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((range: { volume_start: string; volume_end: string | null; price_per_unit: string }) => ({
    volume_start: normalizeDecimal(range.volume_start),
    volume_end: range.volume_end === null ? null : normalizeDecimal(range.volume_end),
    price_per_unit: normalizeDecimal(range.price_per_unit),
  }));
}
