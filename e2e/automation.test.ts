import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn, seen } from './browser.ts';
import { pairSimulatedDevice, subscribedZone } from './fixtures.ts';

const ZONE_NAME = 'Automation test zone';

type ZoneWithDevice = { page: string; api: string; device: SimulatedFlowbox };

let browser: Browser;
const devices: SimulatedFlowbox[] = [];
let ticker: NodeJS.Timeout | undefined;
let zone: ZoneWithDevice;

/**
 * A litre-billed building with a subscribed housing zone, a simulated device paired in it (reporting
 * every 2 s), and automatic closing at 10 L.
 */
async function zoneWithDevice(label: string, serial: string, seed: number): Promise<ZoneWithDevice> {
  const zone = await subscribedZone(label, { volumeUnit: 'liter', profile: 'housing' });
  const paired = await pairSimulatedDevice(zone, {
    serial,
    factorySecret: `E2E_${label.replace(/\W/g, '_')}_secret_`.padEnd(43, 'y'),
    seed,
    intervalS: 2,
    pairingRetryMs: 500,
  });
  const device = paired.simulated;
  devices.push(device);
  await device.start();
  await signedIn(DEMO.customer)('PUT', `${zone.api}/automation/update`, {
    automatic_closing_enabled: true,
    volume_margin_enabled: true,
    volume_margin: 10,
    duration_margin_enabled: false,
    duration_margin_minutes: null,
  });
  return { page: zone.page, api: zone.api, device };
}

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await zoneWithDevice('Automation', 'FB-E2E-AC0001', 8);
  // A lone device measures when ticked (a fleet runs this timer for its devices).
  ticker = setInterval(() => devices.forEach((device) => device.tick()), 500);
});
afterAll(async () => {
  clearInterval(ticker);
  await Promise.all(devices.map((device) => device.stop()));
  await browser.close();
});

describe('automatic closing in the browser', () => {
  it('locks the zone live on a burst pipe, refuses a wrong name, and exits by the zone name', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    await seen(page, 'Closes the water');
    await page.screenshot({ path: '/tmp/automation-card.png', fullPage: true });

    zone.device.setFaults([{ kind: 'burst_pipe' }]);
    const banner = page.getByTestId('automation-locked');
    await expect.poll(() => banner.count(), { timeout: 40_000 }).toBe(1);
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

  it('catches up a lock that happened while live updates were cut off', async () => {
    const gap = await zoneWithDevice('Automation gap', 'FB-E2E-AC0002', 9);
    const asCustomer = signedIn(DEMO.customer);
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(gap.page);
    await seen(page, 'Closes the water');
    // The live stream cut off: the open one ends with its access token (5 s here), and no new one
    // gets through, as on a train going into a tunnel.
    await page.route('**/v1/live/stream**', (route) => route.abort());
    const live = page.getByTestId('live-status');
    await expect.poll(() => live.getAttribute('data-status'), { timeout: 20_000 }).toBe('reconnecting');

    gap.device.setFaults([{ kind: 'burst_pipe' }]);
    await expect
      .poll(
        async () =>
          (
            await asCustomer<{ locked: boolean; close_confirmed_at: string | null }>(
              'GET',
              `${gap.api}/automation/info`,
            )
          ).close_confirmed_at,
        { timeout: 30_000 },
      )
      .not.toBeNull();
    // Nothing reached the page meanwhile.
    const banner = page.getByTestId('automation-locked');
    expect(await banner.count()).toBe(0);

    await page.unroute('**/v1/live/stream**');
    await expect.poll(() => live.getAttribute('data-status'), { timeout: 40_000 }).toBe('connected');
    // What happened during the gap shows once the stream is back, without a reload.
    await expect.poll(() => banner.count()).toBe(1);
    await seen(page, /The flowbox confirmed the closing/);
  });
});
