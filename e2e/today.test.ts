import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, signIn } from './browser.ts';
import { invitedResident, subscribedZone, type SubscribedZone } from './fixtures.ts';

/*
 * Issue 30 item 13: two "today"s. A resident's dashboard said 0.383 m³ / 1,35 € (the building's
 * day so far) and its zone home's "Today" 0.533 m³ / 1,88 € (the last 24 hours). "Today" is the
 * calendar day in the building's time zone everywhere; the graph's rolling windows say what they
 * are ("Last 24 hours"). The server's answers are edited on their way so that yesterday evening's
 * water falls in the last 24 hours but not in today.
 */

const PASSWORD = 'today-pass-1';
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let zone: SubscribedZone;
let resident: { email: string };
const idOf = (api: string) => api.split('/').pop()!;

type Series = {
  buckets: { volume: string; cost: string | null }[];
  total: { volume: string; cost: string | null };
};

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await subscribedZone('Today');
  resident = await invitedResident([idOf(zone.api)], { language: 'en', password: PASSWORD });
});
afterAll(async () => {
  await browser.close();
});

/** Today so far: 0.383 m³ for €1.35; yesterday 0.412 m³; the last 24 hours, with last evening: 0.533 m³. */
async function withYesterdayEvening(page: Page): Promise<void> {
  await page.route('**/v1/dashboard/today', async (route) => {
    const today = await (await route.fetch()).json();
    await route.fulfill({ json: { ...today, volume_today: '0.383', cost_today: '1.35' } });
  });
  await page.route('**/consumption?*', async (route) => {
    const window = new URL(route.request().url()).searchParams.get('window');
    const series = (await (await route.fetch()).json()) as Series;
    if (window === 'day') series.total = { ...series.total, volume: '0.533', cost: '1.88' };
    if (window === 'week') {
      series.buckets[series.buckets.length - 1] = {
        ...series.buckets.at(-1)!,
        volume: '0.383',
        cost: '1.35',
      };
      series.buckets[series.buckets.length - 2] = {
        ...series.buckets.at(-2)!,
        volume: '0.412',
        cost: '1.45',
      };
      series.total = { ...series.total, volume: '0.795', cost: '2.80' };
    }
    await route.fulfill({ json: series });
  });
}

describe('today, for a resident', () => {
  it('is the building’s calendar day on its dashboard and its zone home; the graph says “last 24 hours”', async () => {
    const { context, page } = await newPage(browser);
    await withYesterdayEvening(page);
    await signIn(page, resident.email, PASSWORD);
    await expect.poll(() => page.getByTestId('today-volume').textContent()).toMatch(/0\.383\s*m³/);
    expect(await page.getByTestId('today-cost').textContent()).toMatch(/€1\.35/);
    await page.getByRole('link', { name: 'Open my zone' }).click();
    await page.waitForURL((url) => url.pathname === `/my/zones/${idOf(zone.api)}`);
    const volume = page.getByTestId('myzone-today-volume');
    await expect.poll(() => volume.textContent()).toMatch(/0\.383\s*m³/);
    expect(await page.getByTestId('myzone-today-cost').textContent()).toMatch(/€1\.35/);
    // A figure to weigh it by: yesterday's whole day.
    expect(await volume.textContent()).toMatch(/Yesterday: 0\.412\s*m³/);
    // The graph's day is rolling: said so, beside its 0.533 m³.
    const graph = page.getByTestId('consumption-card');
    await expect.poll(() => graph.textContent()).toMatch(/Last 24 hours/);
    expect(await page.getByTestId('consumption-total').textContent()).toMatch(/0\.533\s*m³/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/today-1280-en.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/today-390-en.png`, fullPage: true });
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await expect.poll(() => volume.textContent()).toMatch(/0,383\s*m³/);
    expect(await volume.textContent()).toMatch(/Hier : 0,412\s*m³/);
    await expect.poll(() => graph.textContent()).toMatch(/Dernières 24 heures/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/today-390-fr.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/today-1280-fr.png`, fullPage: true });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await context.close();
  });
});
