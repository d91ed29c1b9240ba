import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';
import { subscribedZone, type SubscribedZone } from './fixtures.ts';

/*
 * Issue 30 item 17: a new price from a future date showed on the subscription page without its
 * date, as if it billed now; the zone showed the current price without the coming one; French read
 * "3.6", "0.012" and "EUR/Mètre cube". Both pages show the price in force and the coming one with
 * its date, numbers in the reader's locale and the unit as a unit.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let zone: SubscribedZone;
/** A month from now, when the new price starts. */
const coming = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const [year, month, day] = coming.split('-');

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await subscribedZone('Prices');
  await signedIn(DEMO.provider)('PUT', `/pricing_plans/${zone.planId}/update`, {
    new_price: true,
    from_date: coming,
    ranges: [
      { volume_start: '0', volume_end: '10', price_per_unit: '3.6' },
      { volume_start: '10', volume_end: null, price_per_unit: '4.012' },
    ],
  });
});
afterAll(async () => {
  await browser.close();
});

const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).first().textContent()) ?? '';

describe('current and coming prices', () => {
  it('show with their dates on the subscription page and the zone, in English and French', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(`${zone.page}/subscription`);
    await expect.poll(() => text(page, 'plan-prices')).toMatch(/3\.5/);
    const english = await text(page, 'plan-prices');
    expect(english).toMatch(/per m³/);
    expect(english).toContain(`From ${month}/${day}/${year}`);
    expect(english).toMatch(/4\.012/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/prices-subscription-1280-en.png`, fullPage: true });
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await expect.poll(() => text(page, 'plan-prices')).toMatch(/3,5/);
    const french = await text(page, 'plan-prices');
    expect(french).toMatch(/3,6/);
    expect(french).toMatch(/4,012/);
    expect(french).toContain(`À partir du ${day}/${month}/${year}`);
    expect(french).not.toMatch(/Mètre cube|EUR\//);
    await page.setViewportSize({ width: 390, height: 844 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/prices-subscription-390-fr.png`, fullPage: true });

    await page.goto(zone.page);
    await expect.poll(() => text(page, 'price-tiers')).toMatch(/3,5/);
    const tiers = await text(page, 'price-tiers');
    expect(tiers).toContain(`À partir du ${day}/${month}/${year}`);
    expect(tiers).toMatch(/3,6/);
    if (SHOTS) await page.getByTestId('price-tiers').screenshot({ path: `${SHOTS}/prices-zone-390-fr.png` });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => text(page, 'price-tiers')).toContain(`From ${month}/${day}/${year}`);
    if (SHOTS) await page.getByTestId('price-tiers').screenshot({ path: `${SHOTS}/prices-zone-1280-en.png` });
    await context.close();
  });
});
