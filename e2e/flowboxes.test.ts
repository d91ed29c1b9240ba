import { createDevice, type SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, mqttUrl, newPage, signIn, seen } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';

const SERIAL = 'FB-E2E-000001';
/** A factory secret as printed on a label (43 base64url characters, docs/protocol.md). */
const FACTORY_SECRET = 'E2E_factory_secret_'.padEnd(43, 'x');

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let skewed: SimulatedFlowbox | undefined;
let ticker: ReturnType<typeof setInterval> | undefined;
let zone: SubscribedZone;
let zonePage: string;

beforeAll(async () => {
  browser = await launchBrowser();
  // A subscribed zone: pairing needs one (spec §5).
  zone = await subscribedZone('Flowbox');
  zonePage = zone.page;
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await skewed?.stop();
  await browser.close();
});

describe('flowboxes in the browser', () => {
  it('pairs a simulated device in three steps, closes its valve live, shows its autotest result, and detaches it by its serial', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zonePage);

    // Step 1/3: prepare pairing from the zone's Flowbox section.
    await page.getByRole('button', { name: 'Pair a flowbox' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Serial').fill(SERIAL);
    await dialog.getByLabel('Factory secret').fill(FACTORY_SECRET);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await seen(page, 'Waiting for the device');

    // Step 2/3: the device announces itself; the window moves on by itself (live channel).
    device = createDevice({
      serial: SERIAL,
      brokerUrl: mqttUrl(),
      factorySecret: FACTORY_SECRET,
      zone: { profile: 'office', water_points: [], timezone: 'Europe/Paris' },
      model: 'one_inch_v1',
      waterTemperature: 'cold',
      seed: 4,
      pairingRetryMs: 1000,
    });
    const paired = device.pair();
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Validate pairing' }).count(), { timeout: 15_000 })
      .toBe(1);
    await expect(dialog.getByRole('row', { name: /Model/ }).textContent()).resolves.toContain('1"');

    // Step 3/3: finalise; the device receives its own credentials and signs in with them.
    await dialog.getByRole('button', { name: 'Validate pairing' }).click();
    await paired;
    await device.start();
    await seen(page, 'Flowbox paired');
    // The zone has a flowbox now: pairing adds another, it no longer reads as if it had none (issue 30).
    await page.getByRole('button', { name: 'Pair another flowbox' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pair a flowbox' }).count()).toBe(0);

    await page.getByRole('link', { name: SERIAL }).click();
    await page.waitForURL(/\/flowbox\/[0-9a-f-]{36}$/);
    await seen(page, 'Connected');
    const valve = page.getByTestId('flowbox-valve');
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');

    // Closing the valve is confirmed first, then its state changes without a reload.
    await page.getByRole('button', { name: 'Close the valve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close the valve' }).click();
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('closed');
    await expect
      .poll(() => page.getByTestId('last-command').getByTestId('command-status').getAttribute('data-status'))
      .toBe('done');

    await page.getByRole('button', { name: 'Run an autotest' }).click();
    const result = page.getByTestId('autotest-result').locator('[data-result]');
    await expect.poll(() => result.getAttribute('data-result'), { timeout: 15_000 }).toBe('all_succeeded');
    await seen(page, 'All succeeded');

    // Detaching is confirmed by typing the serial (spec §4, §5); a wrong one is refused in place.
    await page.getByRole('button', { name: 'Detach' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByLabel('Serial to confirm').fill('FB-E2E-000002');
    await confirm.getByRole('button', { name: 'Detach' }).click();
    await seen(page, "Both names don't match");
    await confirm.getByLabel('Serial to confirm').fill(SERIAL);
    await confirm.getByRole('button', { name: 'Detach' }).click();
    await page.waitForURL((url) => url.pathname === zonePage);
    await seen(page, 'No flowbox paired yet');
  });

  it('shows a device clock 3 min 12 s ahead as a warning, with what it means, in English and French', async () => {
    const paired = await pairSimulatedDevice(zone, {
      serial: 'FB-E2E-000003',
      factorySecret: FACTORY_SECRET.replace('x', 'y'),
      clockSkewMs: 192_000,
      intervalS: 1,
      seed: 5,
    });
    skewed = paired.simulated;
    await skewed.start();
    // A lone device measures when ticked (a fleet runs this timer for its devices).
    ticker = setInterval(() => skewed?.tick(), 500);
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(`${zonePage}/flowbox/${paired.flowboxId}`);
    const clock = page.getByTestId('flowbox-clock');
    await expect
      .poll(() => page.locator('[data-testid="flowbox-clock"][data-alarming="true"]').count(), {
        timeout: 20_000,
      })
      .toBe(1);
    await expect(clock.textContent()).resolves.toMatch(/^3 min 1\d s ahead/);
    await seen(page, 'automatic closing is not affected', 5_000);
    await seen(page, 'Meter index', 5_000);

    await page.getByRole('button', { name: 'French' }).click();
    await expect.poll(() => clock.textContent()).toMatch(/^En avance de 3 min 1\d s/);
    await seen(page, 'Horloge de l’appareil', 5_000);
    await page.getByRole('button', { name: 'Anglais' }).click();
  });
});
