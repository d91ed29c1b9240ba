import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signIn } from './browser.ts';

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
