import type { BillingType } from './plans.ts';

/** The calendar day (yyyy-MM-dd, spec §3 backend format) at `at` in an IANA time zone. */
export function localDate(at: Date, timezone: string): string {
  // en-CA spells dates as yyyy-MM-dd.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/**
 * The day `count` billing periods after `start`. A month after 31 January is the last day of
 * February; counting from the start (not from the previous renewal) keeps later renewals on the
 * 31st when the month has one.
 */
export function addBillingPeriods(start: string, billingType: BillingType, count: number): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number];
  const months = (billingType === 'annual' ? 12 : 1) * count;
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The first renewal after `after`: start plus a whole number of periods. */
export function nextRenewal(start: string, billingType: BillingType, after: string): string {
  let count = 1;
  while (addBillingPeriods(start, billingType, count) <= after) count += 1;
  return addBillingPeriods(start, billingType, count);
}
