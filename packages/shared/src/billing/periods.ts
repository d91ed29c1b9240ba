import type { BillingType } from './plans.ts';

/**
 * The day `count` billing periods after `start`. A month after 31 January is the last day of
 * February; counting from the start (not from the previous renewal) keeps later renewals on the
 * 31st when the month has one. Throws rather than leave the years 0000–9999 (past them a date is
 * no longer yyyy-MM-dd, and "+010000-01-31" sorts before "9999-12-31").
 */
export function addBillingPeriods(start: string, billingType: BillingType, count: number): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number];
  const index = year * 12 + month - 1 + monthsPerPeriod(billingType) * count;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12;
  if (!(targetYear >= 0 && targetYear <= 9999))
    throw new RangeError(`${start} plus ${count} ${billingType} periods is outside 0000–9999`);
  const lastDay = targetMonth === 1 && isLeap(targetYear) ? 29 : DAYS_IN_MONTH[targetMonth]!;
  return `${pad(targetYear, 4)}-${pad(targetMonth + 1, 2)}-${pad(Math.min(day, lastDay), 2)}`;
}

/**
 * The first renewal after `after`: start plus a whole number of periods. The count is found by
 * month arithmetic, then settled by a step or two: the work does not grow with the years between
 * `start` and `after`.
 */
export function nextRenewal(start: string, billingType: BillingType, after: string): string {
  const months = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  let count = Math.max(1, Math.floor((months(after) - months(start)) / monthsPerPeriod(billingType)));
  while (count > 1 && addBillingPeriods(start, billingType, count - 1) > after) count -= 1;
  while (addBillingPeriods(start, billingType, count) <= after) count += 1;
  return addBillingPeriods(start, billingType, count);
}

const monthsPerPeriod = (billingType: BillingType) => (billingType === 'annual' ? 12 : 1);
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const pad = (n: number, width: number) => String(n).padStart(width, '0');
