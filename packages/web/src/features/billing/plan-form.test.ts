import type { PricingPlan } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import {
  emptyRange,
  planFormValues,
  planProblems,
  toPlanInput,
  toPlanUpdate,
  type PlanFormValues,
} from './plan-form.ts';

const filled = (overrides: Partial<PlanFormValues> = {}): PlanFormValues => ({
  ...planFormValues(undefined, '2026-01-01'),
  name: 'Water',
  regions: 'fr, be',
  ranges: [
    { volume_start: '0', volume_end: '10', no_end: false, price_per_unit: '1,5' },
    { volume_start: '10', volume_end: '', no_end: true, price_per_unit: '2' },
  ],
  ...overrides,
});

describe('the pricing plan form', () => {
  it('sends countries as a list, "No end limit" as a null end and decimal commas as points', () => {
    expect(toPlanInput(filled())).toMatchObject({
      regions: ['fr', 'be'],
      ranges: [
        { volume_start: '0', volume_end: '10', price_per_unit: '1.5' },
        { volume_start: '10', volume_end: null, price_per_unit: '2' },
      ],
    });
    expect(planProblems(filled())).toEqual([]);
  });

  it('puts each range rule of spec §5 on the field at fault, as catalogue keys', () => {
    const problems = planProblems(
      filled({
        ranges: [
          { volume_start: '5', volume_end: '10', no_end: false, price_per_unit: '1' },
          { volume_start: '12', volume_end: '20', no_end: false, price_per_unit: '1' },
        ],
      }),
    );
    expect(problems).toEqual([
      { field: 'ranges.0.volume_start', message: 'validation.range_first_zero' },
      { field: 'ranges.1.volume_start', message: 'validation.range_contiguous' },
      { field: 'ranges.1.volume_end', message: 'validation.range_last_open' },
    ]);
    expect(planProblems(filled({ name: '', regions: '' })).map((p) => p.field)).toEqual(['name', 'regions']);
  });

  it('starts a new plan with one open range from 0', () => {
    expect(planFormValues(undefined, '2026-05-01')).toMatchObject({
      from_date: '2026-05-01',
      ranges: [emptyRange('0')],
    });
  });

  it('sends only the price terms that changed, unless it is a new price', () => {
    const plan = {
      name: 'Water',
      is_default: false,
      regions: ['FR'],
      billing_type: 'monthly',
      acquisition_type: 'acquisition',
      currency: 'EUR',
      volume_unit: 'm3',
      from_date: '2026-01-01',
      ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '2.5' }],
    } as PricingPlan;
    const values = planFormValues(plan, '2026-06-01');
    expect(
      toPlanUpdate(plan, {
        ...values,
        name: 'Renamed',
        ranges: [{ ...values.ranges[0]!, price_per_unit: '2.50' }],
      }),
    ).toEqual({
      name: 'Renamed',
      is_default: false,
      regions: ['FR'],
      new_price: false,
    });
    const newPrice = toPlanUpdate(plan, { ...values, new_price: true, from_date: '2026-07-01' });
    expect(newPrice).toMatchObject({
      new_price: true,
      from_date: '2026-07-01',
      ranges: plan.ranges,
      currency: 'EUR',
    });
  });
});
