import { DATE_MAX, EXPORT_MAX_DAYS } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import type { VersionWithRanges } from '../billing/plans.repo.ts';
import { billingPeriods } from './costs.ts';
import { addDays, addMonths, dailyPlan, startOfLocalDay } from './windows.ts';

/*
 * The consumption date maths stay within the years 0000–9999 and do work bounded by what is asked
 * (issue #20 item 2): an export ending on 9999-12-31 looped for ever (a date past it is written
 * "+010000-01-01", which sorts before it), and one ending in December 9999 stepped through 3.2
 * million billing periods, blocking the server 6 seconds.
 */

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

function timed<T>(work: () => T): { ms: number; result?: T; error?: unknown } {
  const started = performance.now();
  try {
    const result = work();
    return { ms: performance.now() - started, result };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe('consumption date maths', () => {
  it('a daily plan of an export counts its days first: past 9999-12-31 it throws at once', () => {
    const last = timed(() => dailyPlan('9999-12-31', '9999-12-31', 'UTC', new Date()));
    expect(last.error).toBeInstanceOf(RangeError);
    expect(last.ms).toBeLessThan(50);
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
    const end = timed(() => billingPeriods([subscription], versions, '2099-12-01', '2100-01-01'));
    expect(end.result).toEqual([
      { zoneId: 'z', planId: 'plan', fromDay: '2099-11-30', toDay: '2099-12-31' },
      { zoneId: 'z', planId: 'plan', fromDay: '2099-12-31', toDay: '2100-01-31' },
    ]);
    expect(end.ms).toBeLessThan(20);
    const beyond = timed(() => billingPeriods([subscription], versions, '9999-11-29', '9999-12-31'));
    expect(beyond.ms).toBeLessThan(50);
  });
});
