import { addBillingPeriods, DATE_MAX, EXPORT_MAX_DAYS } from '@flowbox/shared';
import type * as Shared from '@flowbox/shared';
import { describe, expect, it, vi } from 'vitest';
import type { VersionWithRanges } from '../billing/plans.repo.ts';
import { billingPeriods } from './costs.ts';
import { addDays, addMonths, dailyPlan, startOfLocalDay } from './windows.ts';

/*
 * The consumption date maths stay within the years 0000–9999 and do work bounded by what is asked
 * (issue #20 item 2): an export ending on 9999-12-31 looped for ever (a date past it is written
 * "+010000-01-01", which sorts before it), and one ending in December 9999 stepped through 3.2
 * million billing periods, blocking the server 6 seconds.
 */

// The steps of a billing-period walk, counted rather than timed: a time bound fails on a busy
// machine (20 ms did, at load 15) and passes a slow walk on a fast one.
vi.mock('@flowbox/shared', async (importOriginal) => {
  const shared = await importOriginal<typeof Shared>();
  return { ...shared, addBillingPeriods: vi.fn(shared.addBillingPeriods) };
});
const stepsOf = <T>(work: () => T): { steps: number; result: T } => {
  vi.mocked(addBillingPeriods).mockClear();
  const result = work();
  return { steps: vi.mocked(addBillingPeriods).mock.calls.length, result };
};

const monthly: VersionWithRanges = {
  id: 'v1',
  planId: 'plan',
  version: 1,
  fromDate: '2000-01-01',
  billingType: 'monthly',
  acquisitionType: 'pay_as_you_go_fee',
  currency: 'EUR',
  volumeUnit: 'm3',
  archivedAt: null,
  createdAt: new Date(0),
  ranges: [{ volume_start: '0', volume_end: null, price_per_unit: '1' }],
};
const versions = new Map([['plan', [monthly]]]);
const subscription = { zoneId: 'z', planId: 'plan', startDate: '2000-01-31', endDate: null };

describe('consumption date maths', () => {
  it('a daily plan of an export counts its days first: past 9999-12-31 it throws', () => {
    // It looped for ever: the test's own time-out is the bound.
    expect(() => dailyPlan('9999-12-31', '9999-12-31', 'UTC', new Date())).toThrow(RangeError);
  });

  it('a daily plan holds at most an export’s days, and exactly the days asked', () => {
    expect(() => dailyPlan('2000-01-01', '2099-12-31', 'UTC', new Date())).toThrow(RangeError);
    expect(() => dailyPlan('2026-01-02', '2026-01-01', 'UTC', new Date())).toThrow(RangeError);
    const first = addDays(DATE_MAX, 1 - EXPORT_MAX_DAYS);
    const plan = dailyPlan(first, DATE_MAX, 'Europe/Paris', new Date());
    expect(plan.buckets).toHaveLength(EXPORT_MAX_DAYS);
    expect(plan.buckets.at(-1)).toMatchObject({ fromDay: DATE_MAX, toDay: '2100-01-01' });
  });

  it('calendar steps refuse to leave the years 0000–9999', () => {
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addMonths('9999-12-01', 1)).toThrow(RangeError);
    expect(addMonths('2099-12-31', 1)).toBe('2100-01-01');
    expect(addDays('2099-12-31', 1)).toBe('2100-01-01');
    expect(startOfLocalDay('2011-12-30', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
  });

  it('billing periods of a range are found in a few steps, whatever the subscription’s age', () => {
    const end = stepsOf(() => billingPeriods([subscription], versions, '2099-12-01', '2100-01-01'));
    expect(end.result).toEqual([
      { zoneId: 'z', planId: 'plan', fromDay: '2099-11-30', toDay: '2099-12-31' },
      { zoneId: 'z', planId: 'plan', fromDay: '2099-12-31', toDay: '2100-01-31' },
    ]);
    // A hundred years after the subscription's start: the walk from it took 1,200 steps and more.
    expect(end.steps).toBeLessThanOrEqual(16);
    const recent = stepsOf(() => billingPeriods([subscription], versions, '2000-03-01', '2000-04-01'));
    expect(end.steps).toBeLessThanOrEqual(recent.steps + 4);
    // At the end of the years: the walk stopped at 9999-12-31 (3.2 million steps, 6 s) now
    // throws or ends in as few steps.
    const beyond = stepsOf(() => {
      try {
        return billingPeriods([subscription], versions, '9999-11-29', '9999-12-31');
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        return [];
      }
    });
    expect(beyond.steps).toBeLessThanOrEqual(16);
  });
});
