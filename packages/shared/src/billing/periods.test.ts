import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_MAX, DATE_MIN, addDays, dayNumber, dayOfNumber } from '../dates.ts';
import { addBillingPeriods, nextRenewal } from './periods.ts';

/*
 * Billing-period maths that cannot leave the years 0000–9999 nor loop (issue #20 item 2): past
 * 9999-12-31 a date written by toISOString is "+010000-…", which sorts before "9999-12-31", and
 * an export in December 9999 stepped through 3.2 million periods before it failed.
 */

const supportedDay = fc
  .integer({ min: dayNumber(DATE_MIN), max: dayNumber(DATE_MAX) })
  .map((n) => dayOfNumber(n));

/** The first renewal after `after` by walking every period from the start: the definition. */
function renewalByWalking(start: string, billingType: 'monthly' | 'annual', after: string): string {
  let count = 1;
  while (addBillingPeriods(start, billingType, count) <= after) count += 1;
  return addBillingPeriods(start, billingType, count);
}

describe('billing periods', () => {
  it('keep the day of the month, or the month’s last day', () => {
    expect(addBillingPeriods('2024-01-31', 'monthly', 1)).toBe('2024-02-29');
    expect(addBillingPeriods('2025-01-31', 'monthly', 1)).toBe('2025-02-28');
    expect(addBillingPeriods('2025-01-31', 'monthly', 2)).toBe('2025-03-31');
    expect(addBillingPeriods('2024-02-29', 'annual', 1)).toBe('2025-02-28');
    expect(addBillingPeriods('2024-02-29', 'annual', 4)).toBe('2028-02-29');
    expect(addBillingPeriods('2100-02-28', 'annual', 0)).toBe('2100-02-28');
    expect(addBillingPeriods('2099-03-31', 'monthly', 11)).toBe('2100-02-28');
  });

  it('refuse to leave the years 0000–9999 instead of writing "+010000-…"', () => {
    expect(() => addBillingPeriods('9999-12-15', 'monthly', 1)).toThrow(RangeError);
    expect(() => addBillingPeriods('9999-01-15', 'annual', 1)).toThrow(RangeError);
    expect(() => addBillingPeriods('0000-01-15', 'monthly', -1)).toThrow(RangeError);
    expect(() => nextRenewal('2026-01-01', 'monthly', '9999-12-31')).toThrow(RangeError);
  });

  it('the next renewal is the walked one, found in a few steps whatever the years between', () => {
    fc.assert(
      fc.property(supportedDay, supportedDay, fc.constantFrom('monthly', 'annual'), (start, after, type) => {
        expect(nextRenewal(start, type, after)).toBe(renewalByWalking(start, type, after));
      }),
      { seed: 20, numRuns: 300 },
    );
    const started = performance.now();
    for (let i = 0; i < 1000; i++) nextRenewal('2000-01-31', 'monthly', addDays(DATE_MAX, -i));
    expect(performance.now() - started).toBeLessThan(200);
  });
});
