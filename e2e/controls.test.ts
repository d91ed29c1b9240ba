import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, launchBrowser, newPage, signedIn, signIn, seen } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';

const SERIAL = 'FB-E2E-CT0001';
const FACTORY_SECRET = 'E2E_controls_secret_'.padEnd(43, 'z');
const ZONE_NAME = 'Controls test zone';

let browser: Browser;
let device: SimulatedFlowbox | undefined;
let ticker: NodeJS.Timeout | undefined;
let zone: SubscribedZone;
let flowboxPage: string;

/** The button of that name, when the page offers it. */
const offered = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name, exact: true }).count();

/** The text a control's aria-describedby points at: what a screen reader says of it. */
async function description(page: Page, control: Locator): Promise<string> {
  const ids = (await control.getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(' ')
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}

beforeAll(async () => {
  browser = await launchBrowser();
  // A litre-billed housing zone with automatic closing at 10 L and a device reporting every 2 s.
  zone = await subscribedZone('Controls', { volumeUnit: 'liter', profile: 'housing' });
  const paired = await pairSimulatedDevice(zone, {
    serial: SERIAL,
    factorySecret: FACTORY_SECRET,
    seed: 11,
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
  flowboxPage = `${zone.page}/flowbox/${paired.flowboxId}`;
});
afterAll(async () => {
  clearInterval(ticker);
  await device?.stop();
  await browser.close();
});

describe('controls that reflect the device', () => {
  it('offer only what changes the state; on a locked zone the flowbox page shows the lock, refuses every action with its reason, and exits by the name; opening warns of the open alert', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(flowboxPage);
    const valve = page.getByTestId('flowbox-valve');
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');
    const controls = page.getByRole('region', { name: 'Controls' });
    await expect.poll(() => offered(controls, 'Close the valve')).toBe(1);
    expect(await offered(controls, 'Open the valve')).toBe(0);
    expect(await offered(controls, 'Turn maintenance mode on')).toBe(1);
    expect(await offered(controls, 'Turn maintenance mode off')).toBe(0);
    expect(await offered(controls, 'Turn leak detection on')).toBe(1);
    expect(await offered(controls, 'Turn leak detection off')).toBe(0);
    expect(await page.getByTestId('automation-locked').count()).toBe(0);

    // A burst pipe: automatic closing shuts the water and locks the zone, and this page shows it.
    device!.setFaults([{ kind: 'burst_pipe' }]);
    const banner = page.getByTestId('automation-locked');
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(1);
    await seen(page, 'Automatic closing triggered: the water is closed');
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('closed');
    device!.setFaults([]);
    for (const name of [
      'Open the valve',
      'Turn maintenance mode on',
      'Turn leak detection on',
      'Reboot',
      'Unpair',
      'Detach',
    ]) {
      const control = page.getByRole('button', { name, exact: true });
      await expect.poll(() => control.isDisabled(), { timeout: 10_000 }).toBe(true);
      expect(await description(page, control)).toMatch(
        /No action allowed while automatic closing holds this zone/,
      );
    }
    expect(await page.getByRole('button', { name: 'Run an autotest' }).isDisabled()).toBe(true);
    await seen(page, /No action allowed while automatic closing holds this zone/);
    await page.screenshot({ path: '/tmp/controls-flowbox-locked.png', fullPage: true });

    // The zone page says the same of its valve and of pairing.
    await page.goto(zone.page);
    const zoneValve = page.getByRole('region', { name: 'Valve' });
    for (const control of [
      zoneValve.getByRole('button', { name: 'Open the valve', exact: true }),
      page.getByRole('button', { name: 'Pair another flowbox' }),
    ]) {
      await expect.poll(() => control.isDisabled(), { timeout: 15_000 }).toBe(true);
      expect(await description(page, control)).toMatch(
        /No action allowed while automatic closing holds this zone/,
      );
    }
    await page.goto(flowboxPage);

    // The way out, from this page: the zone's name typed.
    await banner.getByRole('button', { name: 'Exit automatic closing' }).click();
    const exit = page.getByRole('dialog');
    await exit.getByLabel('Zone name').fill(ZONE_NAME);
    await exit.getByRole('button', { name: 'Exit automatic closing' }).click();
    await seen(page, 'Automatic closing exited: the zone is unlocked');
    await expect.poll(() => banner.count()).toBe(0);

    // The valve stayed closed: opening is the one action offered, and it is confirmed, saying that
    // the zone's leak alert is still open.
    const open = controls.getByRole('button', { name: 'Open the valve', exact: true });
    await expect.poll(() => open.isDisabled()).toBe(false);
    expect(await offered(controls, 'Close the valve')).toBe(0);
    await open.click();
    const confirm = page.getByRole('dialog');
    await expect
      .poll(() => confirm.textContent())
      .toMatch(/This zone has 1 open leak or abnormal-consumption alert/);
    await page.screenshot({ path: '/tmp/controls-open-confirm.png' });
    await confirm.getByRole('button', { name: 'Open the valve' }).click();
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');
    await expect.poll(() => offered(controls, 'Close the valve')).toBe(1);
    expect(await offered(controls, 'Open the valve')).toBe(0);
  });

  it('shows the pending command until the device confirms it, then offers the other action', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(flowboxPage);
    const valve = page.getByTestId('flowbox-valve');
    const controls = page.getByRole('region', { name: 'Controls' });
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');

    // The device is away: the close waits, and the page says so instead of offering the valve again.
    await device!.goOffline();
    await controls.getByRole('button', { name: 'Close the valve', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close the valve' }).click();
    const pending = page.getByTestId('valve-pending');
    await expect.poll(() => pending.count()).toBe(1);
    await expect.poll(() => pending.textContent()).toMatch(/Closing the valve…/);
    expect(['pending', 'sent']).toContain(
      await pending.getByTestId('command-status').getAttribute('data-status'),
    );
    expect(await offered(controls, 'Close the valve')).toBe(0);
    expect(await offered(controls, 'Open the valve')).toBe(0);
    expect(await valve.getAttribute('data-valve')).toBe('opened');
    await page.screenshot({ path: '/tmp/controls-pending.png', fullPage: true });

    await device!.goOnline();
    await expect.poll(() => valve.getAttribute('data-valve'), { timeout: 30_000 }).toBe('closed');
    await expect.poll(() => pending.count()).toBe(0);
    await expect.poll(() => offered(controls, 'Open the valve')).toBe(1);
    expect(await offered(controls, 'Close the valve')).toBe(0);
  });

  it("shows the zone's valve and the same control on the zone page", async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    const card = page.getByRole('region', { name: 'Valve' });
    const state = card.getByTestId('flowbox-valve');
    await expect.poll(() => state.getAttribute('data-valve'), { timeout: 15_000 }).toBe('closed');
    await expect.poll(() => offered(card, 'Open the valve')).toBe(1);
    expect(await offered(card, 'Close the valve')).toBe(0);
    await page.screenshot({ path: '/tmp/controls-zone-valve.png', fullPage: true });
    await card.getByRole('button', { name: 'Open the valve', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Open the valve' }).click();
    await expect.poll(() => state.getAttribute('data-valve'), { timeout: 15_000 }).toBe('opened');
    await expect.poll(() => offered(card, 'Close the valve')).toBe(1);
    expect(await offered(card, 'Open the valve')).toBe(0);
  });

  it('says the valve is unknown before the device reported it, and offers both actions, each confirmed', async () => {
    const silentZone = await subscribedZone('Controls unknown');
    const silent = await pairSimulatedDevice(silentZone, {
      serial: 'FB-E2E-CT0002',
      factorySecret: FACTORY_SECRET.replace('z', 'w'),
      seed: 13,
    });
    try {
      const { page } = await newPage(browser);
      await signIn(page, DEMO.customer);
      await page.goto(`${silentZone.page}/flowbox/${silent.flowboxId}`);
      const controls = page.getByRole('region', { name: 'Controls' });
      await seen(page, /has not reported its valve yet: its state is unknown/);
      expect(await offered(controls, 'Open the valve')).toBe(1);
      expect(await offered(controls, 'Close the valve')).toBe(1);
      await controls.getByRole('button', { name: 'Open the valve', exact: true }).click();
      const confirm = page.getByRole('dialog');
      await expect.poll(() => confirm.textContent()).toMatch(/Water flows again in the whole zone/);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await page.screenshot({ path: '/tmp/controls-unknown.png', fullPage: true });
    } finally {
      await silent.simulated.stop();
    }
  });
});
