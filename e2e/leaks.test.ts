import { ManualClock, systemClock, type SimulatedFlowbox } from '@flowbox/simulator';
import type { LeakAnalytics } from '@flowbox/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * Leak analytics (docs/automation.md "Leak analytics"): a flowbox whose toilet has been running for
 * eight days sends those days as hourly readings (an older device's backlog, no sent_at). The zone
 * page shows the hour counter, the loss and the night-flow chart against the allowance; the fleet
 * list finds the flowbox by "continuous flow for 7 days or more" and "night flow above allowance".
 */

const RUN = process.pid;
const HOUR = 3_600_000;
const SHOTS = process.env.E2E_SCREENSHOTS;

let browser: Browser;
let zone: SubscribedZone;
let device: SimulatedFlowbox;
const serial = `FB-E2E-LK${RUN}`;

beforeAll(async () => {
  browser = await launchBrowser();
  zone = await subscribedZone(`Leaks ${RUN}`);
  const start = Math.floor(Date.now() / HOUR) * HOUR - 8 * 24 * HOUR;
  const clock = new ManualClock(start);
  ({ simulated: device } = await pairSimulatedDevice(zone, {
    serial,
    factorySecret: `E2E_leaks_${RUN}_secret_`.padEnd(43, 'z'),
    seed: 29,
    intervalS: 3600,
    clock,
    protocolClock: systemClock,
    sentAt: false,
    faults: [{ kind: 'running_toilet', flowLpm: 0.4 }],
  }));
  await device.start();
  while (clock.now() + HOUR <= Date.now()) {
    clock.advance(HOUR);
    device.tick();
  }
  const asCustomer = signedIn(DEMO.customer);
  await vi.waitFor(
    async () => {
      const leaks = await asCustomer<LeakAnalytics>('GET', `${zone.api}/leaks`);
      if (!leaks.continuous_flow.active || leaks.nights.length < 7) throw new Error('not yet');
    },
    { timeout: 60_000, interval: 1000 },
  );
}, 120_000);
afterAll(async () => {
  await device?.stop();
  await browser.close();
});

const card = (page: Page) => page.getByTestId('leaks');
/** What scrolls sideways: the page, or the night flows' table (other cards' tables have their own tests). */
const scrolls = async (page: Page) =>
  (await sidewaysScrolls(page)).filter(
    (problem) => !problem.startsWith('the table') || /night flow|débit minimal/i.test(problem),
  );

describe('leak analytics in the browser', () => {
  it('the zone page shows the hour counter, the loss and the night flows against the allowance', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(zone.page);
    await seen(page, 'Leaks: continuous flow and night flow');
    const leaks = card(page);
    await expect
      .poll(() => leaks.getByTestId('leaks-counter').textContent(), { timeout: 20_000 })
      .toMatch(/^No hour without water for at least \d+ h$|^No hour without water for \d+ h, since /);
    // 0.4 L/min all night long against 5 L/h for a household of 2 (occupants unknown).
    expect(await leaks.getByTestId('leaks-night-flow').textContent()).toMatch(
      /^2\d\sL\/h · Above the allowance$/,
    );
    expect(await leaks.getByTestId('leaks-loss').textContent()).toMatch(
      /^About [\d,]+\sL a day \(€[\d.]+\)$/,
    );
    await leaks.getByTestId('night-flow-chart').waitFor();
    expect(await leaks.locator('svg').count()).toBeGreaterThan(0);
    await leaks.getByRole('button', { name: 'Show as table' }).click();
    const rows = leaks.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(7);
    expect(await leaks.locator('tbody').getByText('Above', { exact: true }).count()).toBeGreaterThanOrEqual(
      7,
    );
    await expectAccessible(page, 'the zone page with its leak analytics');
    expect(await scrolls(page)).toEqual([]);
    if (SHOTS) await leaks.screenshot({ path: `${SHOTS}/leaks-1280-en.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await leaks.scrollIntoViewIfNeeded();
    expect(await scrolls(page)).toEqual([]);
    if (SHOTS) await leaks.screenshot({ path: `${SHOTS}/leaks-390-en.png` });

    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await seen(page, 'Fuites : écoulement continu et débit de nuit');
    expect(await leaks.getByTestId('leaks-night-flow').textContent()).toMatch(
      /^2\d\sL\/h · Au-dessus de la consommation admise$/,
    );
    await expectAccessible(page, 'the leak analytics in French on a phone');
    expect(await scrolls(page)).toEqual([]);
    if (SHOTS) await leaks.screenshot({ path: `${SHOTS}/leaks-390-fr.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    if (SHOTS) await leaks.screenshot({ path: `${SHOTS}/leaks-1280-fr.png` });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
  });

  it('the dashboard counts the zones with continuous flow and links to them in the fleet', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/');
    const tile = page.getByTestId('today-leaks');
    await tile.waitFor();
    const link = tile.getByRole('link', {
      name: /zones? with continuous flow: see (its|their) flowboxes in the fleet$/,
    });
    expect(Number((await link.getAttribute('aria-label'))?.split(' ')[0])).toBeGreaterThanOrEqual(1);
    await expectAccessible(page, 'the dashboard with its leak figures');
    if (SHOTS) await tile.screenshot({ path: `${SHOTS}/leaks-dashboard-1280-en.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await scrolls(page)).toEqual([]);
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await seen(page, 'Fuites');
    if (SHOTS) await tile.screenshot({ path: `${SHOTS}/leaks-dashboard-390-fr.png` });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await link.click();
    await expect.poll(() => new URL(page.url()).searchParams.get('continuous_flow_days')).toBe('1');
  });

  it('the fleet list finds the flowbox by continuous flow for 7 days and by night flow above allowance', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto('/fleet');
    await page.getByLabel('Search by serial number').fill(serial);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(serial);
    await page.getByLabel('Continuous flow').selectOption({ label: 'For 7 days or more' });
    const table = page.getByRole('table', { name: 'Flowboxes' });
    await table.getByRole('rowheader', { name: serial }).waitFor();
    await page.getByLabel('Continuous flow').selectOption({ label: 'For 14 days or more' });
    await seen(page, 'No flowbox matches these filters.');
    await page.getByLabel('Continuous flow').selectOption({ label: 'Any' });
    await page.getByLabel('Night flow above allowance').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('night_above_allowance')).toBe('true');
    await table.getByRole('rowheader', { name: serial }).waitFor();
    expect(page.url()).toContain('night_above_allowance=true');
    await expectAccessible(page, 'the fleet list filtered by night flow');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/leaks-fleet-1280-en.png` });
  });
});
