import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('the fleet in the browser', () => {
  it('lists the flowboxes, follows the dashboard’s offline figure, filters and exports', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.provider);
    await page.getByTestId('today-devices').getByRole('link').first().waitFor();
    await page
      .getByTestId('today-devices')
      .getByRole('link', { name: /offline: see them/ })
      .click();
    await page.getByRole('heading', { name: 'Fleet', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('offline')).toBe('true');
    await page.getByLabel('Connection').selectOption('');
    const table = page.getByRole('table', { name: 'Flowboxes' });
    // The table shows before its rows on a busy machine: wait for a row, then count.
    await table.getByRole('rowheader').first().waitFor();
    expect(await table.getByRole('rowheader').count()).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/fleet-1280-en.png', fullPage: true });
    // A serial nobody has: the empty state.
    await page.getByLabel('Search by serial number').fill('ZZZ-NOBODY');
    await page.getByText('No flowbox matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^fleet-\d{4}-\d\d-\d\d\.csv$/);
  });

  it('fits a phone in English and French: cards, no sideways scroll of the page', async () => {
    for (const locale of ['en-US', 'fr-FR']) {
      // The interface language is the user's (switched after signing in), not the browser's.
      const { page } = await newPage(browser);
      await signIn(page, DEMO.customer);
      if (locale === 'fr-FR') {
        await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
        await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/fleet');
      const cards = page.getByRole('list', { name: locale === 'en-US' ? 'Flowboxes' : 'Flowbox' });
      await cards.getByRole('listitem').first().waitFor();
      expect(await cards.getByRole('listitem').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `/tmp/fleet-390-${locale}.png`, fullPage: true });
      if (locale === 'fr-FR') {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.getByRole('table', { name: 'Flowbox' }).waitFor();
        await page.screenshot({ path: '/tmp/fleet-1280-fr.png', fullPage: true });
        // Leave the demo user in English for the other tests.
        await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
      }
      await page.context().close();
    }
  });
});

describe('the fleet’s filters and answers', () => {
  it('clears every filter box: the serial search and the firmware version stay empty, and so does the address', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.provider);
      await page.goto('/fleet');
      const table = page.getByRole('table', { name: 'Flowboxes' });
      await table.getByRole('rowheader').first().waitFor();
      const serial = page.getByLabel('Search by serial number');
      const firmware = page.getByLabel('Firmware version');
      await serial.fill('ZZZ-NOBODY');
      await firmware.fill('9.9.9');
      await firmware.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('ZZZ-NOBODY');
      // The two boxes reach the address on their own ways (the search after its pause, the version
      // on Enter): each is waited for.
      await expect.poll(() => new URL(page.url()).searchParams.get('firmware_version')).toBe('9.9.9');
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await table.getByRole('rowheader').first().waitFor();
      // Longer than the search's pause (250 ms) twice over: nothing comes back by itself.
      await page.waitForTimeout(600);
      // Leaving the firmware box (its value is applied on leaving) brings nothing back either.
      await firmware.focus();
      await firmware.blur();
      await page.waitForTimeout(300);
      const params = new URL(page.url()).searchParams;
      expect(params.get('q')).toBeNull();
      expect(params.get('firmware_version')).toBeNull();
      expect(await serial.inputValue()).toBe('');
      expect(await firmware.inputValue()).toBe('');
      expect(await page.getByText('No flowbox matches these filters.').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('says the list failed when the server fails or refuses, and keeps the empty state for an empty answer', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.customer);
      await page.route('**/v1/fleet/list**', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'errors.internal', message: 'The server broke down' }),
        }),
      );
      await page.goto('/fleet?q=ZZZ');
      await seen(page, 'The server broke down');
      expect(await page.getByText('No flowbox matches these filters.').count()).toBe(0);

      // A refusal is the page's: the error page says so, not an empty list.
      await page.unroute('**/v1/fleet/list**');
      await page.route('**/v1/fleet/list**', (route) =>
        route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'errors.forbidden', message: 'Unauthorized resource recovery' }),
        }),
      );
      await page.goto('/fleet?q=ZZY');
      await page.getByRole('heading', { name: 'Access denied' }).waitFor();
      expect(await page.getByText('No flowbox matches these filters.').count()).toBe(0);

      await page.unroute('**/v1/fleet/list**');
      await page.goto('/fleet?q=ZZZ-NOBODY');
      await seen(page, 'No flowbox matches these filters.');
    } finally {
      await context.close();
    }
  });

  it('offers the CSV export only to a manager who may export', async () => {
    const asCustomer = signedIn(DEMO.customer);
    const { customer_id } = await asCustomer<{ customer_id: string }>('GET', '/users/me');
    const managers = await asCustomer<{
      items: { id: string; email: string; permissions: Record<string, string> }[];
    }>('GET', `/customers/${customer_id}/site_managers/list`);
    const siteManager = managers.items.find((m) => m.email === DEMO.site)!;
    const update = `/customers/${customer_id}/site_managers/${siteManager.id}/update`;
    const before = siteManager.permissions['consumption.export'];
    const { context, page } = await newPage(browser);
    try {
      await signIn(page, DEMO.site);
      await page.goto('/fleet');
      await page.getByRole('button', { name: 'Export CSV' }).waitFor();
      await asCustomer('PUT', update, { permissions: { 'consumption.export': 'denied' } });
      await page.reload();
      await page.getByRole('table', { name: 'Flowboxes' }).getByRole('rowheader').first().waitFor();
      expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    } finally {
      await asCustomer('PUT', update, { permissions: { 'consumption.export': before ?? 'authorised' } });
      await context.close();
    }
  });
});

describe('notifications and settings have addresses of their own', () => {
  it('takes the former /alerts and /alerts/settings links to /notifications and /settings, query kept', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/alerts?category=maintenance');
    await page.waitForURL((url) => url.pathname === '/notifications');
    expect(new URL(page.url()).searchParams.get('category')).toBe('maintenance');
    await page.getByRole('heading', { name: 'Notifications and alerts', level: 1 }).waitFor();
    await page.goto('/alerts/settings');
    await page.waitForURL((url) => url.pathname === '/settings');
    await page
      .getByRole('navigation', { name: /main/i })
      .getByRole('link', { name: 'Notifications and alerts' })
      .click();
    await page.waitForURL((url) => url.pathname === '/notifications');
    await page.context().close();
  });
});
