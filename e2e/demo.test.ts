import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn } from './browser.ts';

/*
 * Issue #15: the demo looks like a running fleet from its first start. The global setup starts the
 * product as `npm start` does, on a fresh data folder: the demo zones hold their past.
 */

let browser: Browser;

type Item = { id: string; name: string };

/** The page of a demo zone of Acme, found as its customer manager sees it. */
async function demoZonePage(building: string, zone: string): Promise<string> {
  const api = signedIn(DEMO.customer);
  const me = await api<{ customer_id: string }>('GET', '/users/me');
  const customer = `/customers/${me.customer_id}`;
  for (const site of (await api<{ items: Item[] }>('GET', `${customer}/sites/list`)).items) {
    const buildings = await api<{ items: Item[] }>('GET', `${customer}/sites/${site.id}/buildings/list`);
    const found = buildings.items.find((b) => b.name === building);
    if (!found) continue;
    const zonesApi = `${customer}/sites/${site.id}/buildings/${found.id}/zones`;
    const match = (await api<{ items: Item[] }>('GET', `${zonesApi}/list`)).items.find(
      (z) => z.name === zone,
    );
    if (match) return `${customer}/sites/${site.id}/building/${found.id}/zone/${match.id}`;
  }
  throw new Error(`no demo zone ${building} / ${zone}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('the demo on first start', () => {
  it("shows a demo zone's past months and compares them, instead of empty graphs", async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    const zonePage = await demoZonePage('Résidence Les Alpes', 'Flat 101');

    // The year by month: every one of the twelve months has water in it.
    await page.goto(`${zonePage}?window=year`);
    const rows = page.getByTestId('consumption-card').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(12);
    const volumes = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        Number((tr.querySelectorAll('td')[0]?.textContent ?? '').replace(/[^\d.,]/g, '').replace(',', '.')),
      ),
    );
    expect(volumes.filter((v) => v > 0)).toHaveLength(12);
    // Compared with the year before (a 13th month of history at least), not "Comparison impossible".
    await expect
      .poll(() => page.getByTestId('consumption-change').getAttribute('data-change'))
      .not.toBe('impossible');
    expect(await page.getByText('Comparison impossible').count()).toBe(0);
    // A whole year against the whole year before: a household draws about the same, not "+500 %".
    const change = Number(await page.getByTestId('consumption-change').getAttribute('data-change'));
    expect(Math.abs(change)).toBeLessThan(25);
    const total = await page.getByTestId('consumption-total').textContent();
    expect(total).toMatch(/m³ · €\d/);

    // The month by week, compared with last month.
    await page.goto(`${zonePage}?window=month`);
    await expect
      .poll(() => page.getByTestId('consumption-change').getAttribute('data-change'), { timeout: 20_000 })
      .toMatch(/^-?\d/);
  });
});
