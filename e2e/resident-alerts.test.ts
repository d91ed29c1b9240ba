import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { invitedResident, testZone, type TestZone } from './fixtures.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * Issue 30 item 12: a resident could not reach its alerts. "See all alerts" and the bell went to
 * /notifications, which sent an end user home, and its menu had no alerts entry. It now has the
 * alerts page, with its zones' alerts only (the server scopes the list as for everyone), from its
 * menu, the bell and its dashboard.
 */

const PASSWORD = 'resident-alerts-1';
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let zone: TestZone;
let neighbour: TestZone;
let resident: { email: string };
const idOf = (api: string) => api.split('/').pop()!;

type AlertList = { items: { zone_id: string; category: string }[] };

beforeAll(async () => {
  browser = await launchBrowser();
  [zone, neighbour] = await Promise.all([testZone('Resident alerts'), testZone('Resident alerts neighbour')]);
  resident = await invitedResident([idOf(zone.api)], { language: 'en', password: PASSWORD });
  // A zone in maintenance mode is told by a maintenance alert at the next sweep (docs/alerts.md):
  // one in the resident's zone, one next door that it must not see.
  const asCustomer = signedIn(DEMO.customer);
  for (const each of [zone, neighbour])
    await asCustomer('PUT', `${each.api}/update`, { maintenance_mode: true });
  await vi.waitFor(
    async () => {
      const { items } = await asCustomer<AlertList>('GET', '/alerts/list?state=active&limit=200');
      if (![zone, neighbour].every((each) => items.some((a) => a.zone_id === idOf(each.api))))
        throw new Error('no maintenance alert yet');
    },
    { timeout: 40_000, interval: 500 },
  );
});
afterAll(async () => {
  const asCustomer = signedIn(DEMO.customer);
  for (const each of [zone, neighbour])
    await asCustomer('PUT', `${each.api}/update`, { maintenance_mode: false });
  await browser.close();
});

/** The alerts page with the resident's zone's alert, and nothing of the zone next door. */
async function expectOwnAlerts(page: Page, heading: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/notifications');
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  const items = page.getByTestId('alert-item');
  await expect.poll(() => items.filter({ hasText: zone.name }).count()).toBeGreaterThan(0);
  expect(await items.filter({ hasText: neighbour.name }).count()).toBe(0);
}

describe('a resident’s alerts', () => {
  it('are listed by the server for its zones only', async () => {
    const { items } = await signedIn(resident.email, PASSWORD)<AlertList>('GET', '/alerts/list?state=active');
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((a) => a.zone_id))).toEqual(new Set([idOf(zone.api)]));
  });

  it('open from its menu, the bell and its dashboard, on a phone and a desktop', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, resident.email, PASSWORD);
    // The dashboard's open alerts card.
    await page.getByRole('link', { name: 'See all alerts' }).click();
    await expectOwnAlerts(page, 'Notifications and alerts');
    // The alert's zone opens the resident's zone home, not the managers' zone page.
    await page.getByTestId('alert-item').getByRole('link', { name: zone.name }).first().click();
    await page.waitForURL((url) => url.pathname === `/my/zones/${idOf(zone.api)}`);
    // The bell.
    await page.getByTestId('alert-count').click();
    await expectOwnAlerts(page, 'Notifications and alerts');
    await expectAccessible(page, 'a resident’s alerts, 1280 px');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/resident-alerts-1280-en.png`, fullPage: true });
    // Its menu, on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#mobile-navigation').getByRole('link', { name: 'Notifications and alerts' }).click();
    await expectOwnAlerts(page, 'Notifications and alerts');
    expect(await sidewaysScrolls(page)).toEqual([]);
    await expectAccessible(page, 'a resident’s alerts, 390 px');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/resident-alerts-390-en.png`, fullPage: true });
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await expectOwnAlerts(page, 'Notifications et alertes');
    expect(await sidewaysScrolls(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/resident-alerts-390-fr.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await seen(page, zone.name);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/resident-alerts-1280-fr.png`, fullPage: true });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await context.close();
  });
});
