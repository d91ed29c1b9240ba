import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn, seen } from './browser.ts';
import { pairSimulatedDevice, subscribedZone } from './fixtures.ts';

const SERIAL = 'FB-E2E-AC0001';
const FACTORY_SECRET = 'E2E_automation_secret_'.padEnd(43, 'y');
const ZONE_NAME = 'Automation test zone';

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let zonePage: string;
let ticker: NodeJS.Timeout | undefined;

/**
 * A litre-billed building with a subscribed housing zone, a simulated device paired in it (reporting
 * every 2 s), and automatic closing at 10 L.
 */
async function zoneWithDevice(): Promise<string> {
  const zone = await subscribedZone('Automation', { volumeUnit: 'liter', profile: 'housing' });
  const paired = await pairSimulatedDevice(zone, {
    serial: SERIAL,
    factorySecret: FACTORY_SECRET,
    seed: 8,
    intervalS: 2,
    pairingRetryMs: 500,
  });
  device = paired.simulated;
  await device.start();
  // A lone device measures when ticked (a fleet runs this timer for its devices).
  ticker = setInterval(() => device?.tick(), 500);
  await signedIn(DEMO.customer)('PUT', `${zone.api}/automation/update`, {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 10,
    duration_margin_enabled: false,
    duration_margin_minutes: null,
  });
  return zone.page;
}

beforeAll(async () => {
  browser = await launchBrowser();
  zonePage = await zoneWithDevice();
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser.close();
});

describe('automatic closing in the browser', () => {
  it('locks the zone live on a burst pipe, refuses a wrong name, and exits by the zone name', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zonePage);
    await seen(page, 'Closes the water');
    await page.screenshot({ path: '/tmp/automation-card.png', fullPage: true });

    device!.setFaults([{ kind: 'burst_pipe' }]);
    const banner = page.getByTestId('automation-locked');
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    await seen(page, 'Automatic closing triggered: the water is closed');
    await seen(page, /The flowbox confirmed the closing/);
    // The zone's valve follows its device, live.
    await seen(page, /^Closed$/);
    await page.screenshot({ path: '/tmp/automation-locked.png', fullPage: true });

    await banner.getByRole('button', { name: 'Exit automatic closing' }).click();
    const dialog = page.getByRole('dialog');
    await seen(page, /This cannot be undone/);
    await dialog.getByLabel('Zone name').fill('Automation zone');
    await dialog.getByRole('button', { name: 'Exit automatic closing' }).click();
    await seen(page, "Both names don't match");
    await page.screenshot({ path: '/tmp/automation-exit.png' });
    await dialog.getByLabel('Zone name').fill(ZONE_NAME);
    await dialog.getByRole('button', { name: 'Exit automatic closing' }).click();
    await seen(page, 'Automatic closing exited: the zone is unlocked');
    await expect.poll(() => banner.count()).toBe(0);
    await seen(page, /Abnormal-volume detection rests until/);
  });
});
