import { readFileSync } from 'node:fs';
import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, launchBrowser, newPage, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone } from './fixtures.ts';

/** One serial per run: a serial stays taken by its flowbox, and the test may run again on a kept server. */
const SERIAL = `FB-E2E-C${process.pid}`;
/** A factory secret as printed on a label (43 base64url characters, docs/protocol.md). */
const FACTORY_SECRET = 'E2E_consumption_secret_'.padEnd(43, 'y');

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let zonePage: string;
let zoneApi: string;
let planId: string;
let flowboxPage: string;
/** A lone device measures when ticked (a fleet has its own timer): every 250 ms, like a fleet. */
let ticker: ReturnType<typeof setInterval> | undefined;
let reporting: Promise<void> | undefined;

/** The device starts reporting once: in the first test after the empty graph is seen, or in any run alone. */
function startReporting(): Promise<void> {
  reporting ??= device!.start().then(() => {
    ticker = setInterval(() => device!.tick(), 250);
  });
  return reporting;
}

const totalVolume = async (page: Page) =>
  Number(
    (await page
      .getByTestId('consumption-total')
      .getAttribute('data-volume', { timeout: 1000 })
      .catch(() => null)) ?? 0,
  );

/** The rows of the graph's table (read by screen readers; the graph draws the same figures). */
const tableRows = (page: Page) => page.getByTestId('consumption-card').locator('tbody tr');

beforeAll(async () => {
  browser = await launchBrowser();
  const zone = await subscribedZone('Consumption');
  zonePage = zone.page;
  zoneApi = zone.api;
  planId = zone.planId;
  // Reporting every second through a burst pipe: consumption that cannot be mistaken for none.
  const paired = await pairSimulatedDevice(zone, {
    serial: SERIAL,
    factorySecret: FACTORY_SECRET,
    seed: 6,
    intervalS: 1,
    faults: [{ kind: 'burst_pipe' }],
  });
  device = paired.simulated;
  flowboxPage = `${zonePage}/flowbox/${paired.flowboxId}`;
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser.close();
});

describe('consumption in the browser', () => {
  it("shows a simulated device's consumption on the zone graph within seconds, by day, week, month and year", async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zonePage);
    await expect
      .poll(() => page.getByText('No consumption recorded yet').count(), { timeout: 15_000 })
      .toBe(1);

    // The device starts reporting; the graph follows without a reload (live channel).
    await startReporting();
    const before = Date.now();
    await expect.poll(() => totalVolume(page), { timeout: 20_000 }).toBeGreaterThan(0);
    const movedAfterMs = Date.now() - before;
    console.info(`consumption graph moved ${movedAfterMs} ms after the device started`);
    const first = await totalVolume(page);
    await expect.poll(() => totalVolume(page), { timeout: 15_000 }).toBeGreaterThan(first);
    const total = await page.getByTestId('consumption-total').textContent();
    expect(total).toMatch(/m³ · €\d+\.\d{2}/);
    await expect(page.getByTestId('consumption-change').textContent()).resolves.toContain(
      'Comparison impossible',
    );

    // Day: the last 24 hours by hour; the window is a radio group kept in the URL.
    const windows = page.getByRole('radiogroup', { name: 'Period' });
    await expect(windows.getByRole('radio', { name: 'Day' }).getAttribute('aria-checked')).resolves.toBe(
      'true',
    );
    await expect.poll(() => tableRows(page).count()).toBe(24);

    await windows.getByRole('radio', { name: 'Week' }).click();
    await page.waitForURL((url) => url.searchParams.get('window') === 'week');
    await expect.poll(() => tableRows(page).count()).toBe(7);
    await expect(totalVolume(page)).resolves.toBeGreaterThan(0);

    // Arrow keys move the choice, as in any radio group.
    await windows.getByRole('radio', { name: 'Week' }).press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('window') === 'month');
    await expect.poll(() => tableRows(page).count()).toBe(4);
    await windows.getByRole('radio', { name: 'Month' }).press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('window') === 'year');
    await expect.poll(() => tableRows(page).count()).toBe(12);
    expect(
      await windows.getByRole('radio', { name: 'Year' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);

    // A reload keeps the window; the table can be shown on screen.
    await page.reload();
    await expect.poll(() => tableRows(page).count(), { timeout: 15_000 }).toBe(12);
    await page.getByRole('button', { name: 'Show as table' }).click();
    await expect(
      page.getByRole('button', { name: 'Hide the table' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await expect(tableRows(page).first().isVisible()).resolves.toBe(true);
  });

  it('writes the figures the French way in French: decimal comma, euro sign after', async () => {
    const { page } = await newPage(browser);
    await startReporting();
    await signIn(page, DEMO.customer);
    await page.getByRole('button', { name: 'French' }).click();
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor();
    await page.goto(`${zonePage}?window=week`);
    await expect.poll(() => totalVolume(page), { timeout: 15_000 }).toBeGreaterThan(0);
    const total = (await page.getByTestId('consumption-total').textContent())!.replace(
      /[\u00a0\u202f]/g,
      ' ',
    );
    expect(total).toMatch(/^\d[\d ]*,\d+ m³ · \d[\d ]*,\d{2} €/);
    await expect(page.getByRole('radio', { name: 'Semaine' }).getAttribute('aria-checked')).resolves.toBe(
      'true',
    );
    await expect(page.getByRole('button', { name: 'Télécharger le CSV' }).count()).resolves.toBe(1);
    const caption = await page.getByTestId('consumption-card').locator('caption').textContent();
    expect(caption).toContain('Derniers 7 jours');
    // Back to English on the profile, so the next browser test signs in in English.
    await page.getByRole('button', { name: 'Anglais' }).click();
    await page.getByRole('radio', { name: 'Week' }).waitFor();
  });

  it('downloads the CSV of the zone and window; shows device details only once the zone is premium', async () => {
    const { page } = await newPage(browser);
    await startReporting();
    await signIn(page, DEMO.customer);
    await page.goto(`${zonePage}?window=day`);
    await expect.poll(() => totalVolume(page), { timeout: 15_000 }).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^consumption-test-zone-day-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('Start');
    expect(csv).toContain('Consumption test zone');

    await page.goto(flowboxPage);
    const details = page.getByTestId('flowbox-consumption');
    await expect
      .poll(() => details.getByText('part of the premium service').count(), { timeout: 15_000 })
      .toBe(1);
    await expect(
      details.getByRole('link', { name: 'Upgrade the zone' }).getAttribute('href'),
    ).resolves.toMatch(/\/subscription$/);
    // The refusal's words came from the server in English: switching to French asks again.
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await expect
      .poll(() => details.getByText('fait partie du service premium').count(), { timeout: 15_000 })
      .toBe(1);
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await expect
      .poll(() => details.getByText('part of the premium service').count(), { timeout: 15_000 })
      .toBe(1);

    // Premium: the device's own figures, the same the zone graph counts.
    const asCustomer = await apiAs(DEMO.customer, DEMO.password);
    await asCustomer('PUT', `${zoneApi}/subscription/update`, {
      pricing_plan_id: planId,
      service_level: 'premium',
    });
    await page.reload();
    const rows = details.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(24);
    const volumes = await details.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(volumes.some((text) => Number(text) > 0)).toBe(true);
    expect(await details.getByText('part of the premium service').count()).toBe(0);
  });

  it("counts the device's water in today's statistics on the dashboard", async () => {
    const { page } = await newPage(browser);
    await startReporting();
    await signIn(page, DEMO.customer);
    const volume = page.getByTestId('today-volume').locator('[data-volume]');
    await expect
      .poll(async () => Number(await volume.getAttribute('data-volume')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(
        () =>
          page.getByTestId('today-top-zones').getByRole('link', { name: 'Consumption test zone' }).count(),
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThan(0);
    // The open alerts the user sees, a link to the alerts screen.
    await expect(page.getByTestId('today-alerts').getByRole('link').textContent()).resolves.toMatch(/^\d+$/);
  });
});
