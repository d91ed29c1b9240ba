import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { axeViolations } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, testZone, type TestZone } from './fixtures.ts';

/*
 * Backtest before saving (issue 29, docs/automation.md "Backtest"): the automatic-closing margins
 * and the zone's profile are tried on the zone's last 30 days before they are saved, the new
 * settings' closings and alerts beside those of the settings in force, in English and French, at
 * 390 and 1280 px, by keyboard. A zone with a burst behind it (alerts only, at a margin it never
 * reached) would have closed with a 10 L margin; a zone without readings shows the empty state.
 */

const SHOTS = process.env.E2E_SCREENSHOTS ?? '/tmp';

let browser: Browser;
let device: SimulatedFlowbox;
let ticker: NodeJS.Timeout | undefined;
let burst: TestZone;
let quiet: TestZone;

const IN_FORCE = {
  automatic_closing_enabled: false,
  volume_margin_enabled: true,
  volume_margin: 5000,
  duration_margin_enabled: false,
  duration_margin_minutes: null,
};

beforeAll(async () => {
  browser = await launchBrowser();
  const zone = await subscribedZone('Backtest', { volumeUnit: 'liter' });
  burst = zone;
  quiet = await testZone('Backtest quiet', { volumeUnit: 'liter' });
  const asCustomer = signedIn(DEMO.customer);
  await asCustomer('PUT', `${zone.api}/automation/update`, IN_FORCE);
  const paired = await pairSimulatedDevice(zone, {
    serial: 'FB-E2E-BT0001',
    factorySecret: 'E2E_Backtest_secret_'.padEnd(43, 'y'),
    seed: 29,
    intervalS: 2,
    pairingRetryMs: 500,
  });
  device = paired.simulated;
  await device.start();
  ticker = setInterval(() => device.tick(), 500);
  // A burst: well past 10 L, far from the 5,000 L margin in force.
  device.setFaults([{ kind: 'burst_pipe' }]);
  await vi.waitFor(
    async () => {
      const info = await asCustomer<{ event: { volume_l: number } | null }>(
        'GET',
        `${zone.api}/automation/info`,
      );
      if ((info.event?.volume_l ?? 0) <= 20) throw new Error('not yet 20 L');
    },
    { timeout: 60_000, interval: 500 },
  );
  device.setFaults([]);
}, 120_000);
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser.close();
});

const dialog = (page: Page) => page.getByRole('dialog');

async function openMargins(page: Page, zonePage: string, language: 'en' | 'fr') {
  await page.goto(zonePage);
  const edit = language === 'en' ? 'Edit the margins' : 'Modifier les marges';
  await page.getByRole('button', { name: edit }).click();
}

describe('trying the margins before saving them', () => {
  it('shows what a 10 L margin would have done beside the settings in force, then saves it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await openMargins(page, burst.page, 'en');
    // By keyboard: the checkbox, the margin, the test.
    await page.getByLabel('Close the water automatically').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Volume margin (L)').fill('10');
    await page.getByRole('button', { name: 'Test on the last 30 days' }).focus();
    await page.keyboard.press('Enter');
    await seen(page, 'Before saving: what these settings would have done');
    const summary = page.getByTestId('backtest-summary');
    await expect
      .poll(async () => (await summary.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/would have closed the water 1 time instead of 0/);
    const result = page.getByTestId('backtest-result');
    const newSide = result.getByTestId('backtest-new');
    await expect.poll(() => newSide.getByRole('rowheader').count()).toBeGreaterThan(0);
    expect(await newSide.textContent()).toMatch(/Closing: volume margin/);
    expect(await newSide.textContent()).toMatch(/\d+(\.\d+)?\s*L/);
    const inForce = result.getByTestId('backtest-in-force');
    expect(await inForce.textContent()).toMatch(/no closing/);
    expect(await axeViolations(page)).toEqual([]);
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-1280-en.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-390-en.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    // Back to the form keeps the values; then the test again, and save.
    await page.getByRole('button', { name: 'Change the settings' }).click();
    expect(await page.getByLabel('Volume margin (L)').inputValue()).toBe('10');
    await page.getByRole('button', { name: 'Test on the last 30 days' }).click();
    await expect.poll(() => summary.count(), { timeout: 30_000 }).toBe(1);
    await page.getByRole('button', { name: 'Save the margins' }).click();
    await seen(page, 'Automatic-closing margins saved');
    const saved = await signedIn(DEMO.customer)<{
      volume_margin: number;
      automatic_closing_enabled: boolean;
    }>('GET', `${burst.api}/automation/info`);
    expect(saved).toMatchObject({ volume_margin: 10, automatic_closing_enabled: true });
    await signedIn(DEMO.customer)('PUT', `${burst.api}/automation/update`, IN_FORCE);
    await context.close();
  });

  it('in French, with a progress indication while it runs', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(burst.page);
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await seen(page, 'Modifier les marges');
    await page.getByRole('button', { name: 'Modifier les marges' }).click();
    await page.getByLabel("Fermer l'eau automatiquement").check();
    await page.getByLabel('Marge de volume (L)').fill('10');
    // Slow the answer a little so that its wait can be seen.
    await page.route('**/automation/backtest', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Tester sur les 30 derniers jours' }).click();
    await expect.poll(() => page.getByTestId('backtest-running').count()).toBe(1);
    expect(await page.getByTestId('backtest-running').textContent()).toMatch(/Rejeu des 30 derniers jours/);
    const summary = page.getByTestId('backtest-summary');
    await expect
      .poll(async () => (await summary.textContent()) ?? '', { timeout: 30_000 })
      .toMatch(/auraient fermé l’eau 1 fois au lieu de 0/);
    expect(await page.getByTestId('backtest-result').textContent()).toMatch(/Fermeture : marge de volume/);
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-1280-fr.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-390-fr.png` });
    // Back to English for the tests after (the dialog leaves the header out of reach).
    await page.getByRole('button', { name: 'Modifier les réglages' }).click();
    await page.getByRole('button', { name: 'Annuler' }).click();
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await seen(page, 'Edit the margins');
    await context.close();
  });

  it('says nothing would have happened for a zone without readings', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await openMargins(page, quiet.page, 'en');
    await page.getByLabel('Check the volume of each flow').check();
    await page.getByLabel('Volume margin (L)').fill('10');
    await page.getByRole('button', { name: 'Test on the last 30 days' }).click();
    await seen(page, /Nothing would have happened in the last 30 days/, 30_000);
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-empty-1280-en.png` });
    await context.close();
  });
});

describe('trying a zone profile before saving it', () => {
  it('shows the new profile on the last 30 days, then saves the zone', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(`${burst.page}/edit`);
    await page.getByLabel('Profile').selectOption('housing');
    await page.getByRole('button', { name: 'Save' }).click();
    await seen(page, 'Before saving: the new profile and hours on the last 30 days');
    // The 5,000 L margin in force is far from the burst, whatever the profile: nothing either way.
    await seen(page, /Nothing would have happened in the last 30 days/, 30_000);
    await dialog(page).screenshot({ path: `${SHOTS}/backtest-zone-1280-en.png` });
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await seen(page, /Zone updated|saved/i);
    const zone = await signedIn(DEMO.customer)<{ profile: string }>('GET', `${burst.api}/info`);
    expect(zone.profile).toBe('housing');
    await context.close();
  });
});
