import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn, seen } from './browser.ts';
import { testZone } from './fixtures.ts';

let browser: Browser;
let zonePage: string;
let zoneApi: string;
const asCustomer = signedIn(DEMO.customer);

/** yyyy-MM-dd of a day from today, in Paris. */
const parisDay = (daysFromToday: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(
    new Date(Date.now() + daysFromToday * 86_400_000),
  );
/** A yyyy-MM-dd day as typed in an English date box (spec §3: MM/dd/yyyy). */
const typedDay = (day: string) => {
  const [year, month, date] = day.split('-');
  return `${month}/${date}/${year}`;
};

beforeAll(async () => {
  browser = await launchBrowser();
  // A building in Lyon with a zone that does not allow scheduled closings yet.
  ({ api: zoneApi, page: zonePage } = await testZone('Schedule'));
});
afterAll(() => browser.close());

describe('scheduled closings', () => {
  it('are explained when not authorised; a weekly closing shows its next occurrences in local time', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.goto(zonePage);
      await seen(page, /Scheduled closings are not authorised on this zone/);
      expect(await page.getByRole('link', { name: 'Add a scheduled closing' }).count()).toBe(0);

      // Allowed from the zone's settings.
      await asCustomer('PUT', `${zoneApi}/update`, { scheduled_closing_authorised: true });
      await page.reload();
      await page.getByRole('link', { name: 'Add a scheduled closing' }).click();
      await page.waitForURL(/\/schedules\/add$/);

      await page.getByLabel('Label').fill('Night closing');
      // Dates are typed as the English interface writes them, whatever the browser's locale.
      await page.getByLabel('Start date').fill(typedDay(parisDay(0)));
      await page.getByLabel('End date').fill('02/31/2026');
      await page.getByLabel('End date').blur();
      await seen(page, 'This date does not exist');
      await page.getByLabel('End date').fill(typedDay(parisDay(-1)));
      await page.getByLabel('Closing time').fill('22:00');
      await page.getByLabel('Opening time').fill('06:00');
      await page.getByLabel('Monday').check();
      await page.getByLabel('Friday').check();
      await page.getByRole('button', { name: 'Create the scheduled closing' }).click();
      await seen(page, 'Should be posterior start date');

      await page.getByLabel('End date').fill(typedDay(parisDay(120)));
      await page.getByRole('button', { name: 'Create the scheduled closing' }).click();
      await page.waitForURL((url) => url.pathname === zonePage);
      await seen(page, 'Every week: Monday, Friday');

      const next = page.getByRole('list', { name: 'Next closings' });
      await expect.poll(() => next.getByRole('listitem').count(), { timeout: 15_000 }).toBe(5);
      const lines = await next.getByRole('listitem').allTextContents();
      for (const line of lines)
        expect(line).toMatch(/^Night closing\d\d\/\d\d\/\d{4} 22:00 to \d\d\/\d\d\/\d{4} 06:00/);
      await seen(page, 'Times in the building’s time zone (Europe/Paris).');
      // Each window starts on a Monday or a Friday (the dates are MM/dd/yyyy in English).
      for (const line of lines) {
        const [, month, day, year] = /(\d\d)\/(\d\d)\/(\d{4}) 22:00/.exec(line)!;
        expect([1, 5]).toContain(
          new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDay(),
        );
      }

      // Changed in another session: the card follows live, without a reload.
      const weekend = await asCustomer<{ id: string }>('POST', `${zoneApi}/schedules/create`, {
        label: 'Weekend closing',
        date_start: parisDay(0),
        date_end: parisDay(120),
        closing_time: '20:00',
        opening_time: '07:00',
        recurring: true,
        frequency: 'weekly',
        interval: 1,
        weekdays: ['saturday'],
      });
      await seen(page, 'Every week: Saturday');
      await asCustomer('DELETE', `${zoneApi}/schedules/${weekend.id}/delete`, {
        confirm_name: 'Weekend closing',
      });
      await expect.poll(() => page.getByText('Every week: Saturday').count(), { timeout: 15_000 }).toBe(0);

      await page.getByRole('button', { name: 'Delete the scheduled closing Night closing' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name to confirm').fill('Night closing');
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await seen(page, 'No scheduled closing yet.');
    } finally {
      await context.close();
    }
  });
});
