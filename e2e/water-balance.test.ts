import type { SimulatedFlowbox } from '@flowbox/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { DEMO, launchBrowser, newPage, seen, signedIn, signIn } from './browser.ts';
import { pairSimulatedDevice, subscribedZone, type SubscribedZone } from './fixtures.ts';
import { sidewaysScrolls } from './layout.ts';

/*
 * A building's water balance (docs/automation.md "Building water balance"): a building with a main
 * supply zone and a kitchen, each with a simulated flowbox reporting every second. The main supply's
 * meter sees a burst pipe the kitchen's does not: the balance shows that water as unaccounted.
 */

const RUN = process.pid;
const SECRET = (name: string) => `E2E_balance_${name}_secret_`.padEnd(43, 'z');

let browser: Browser;
let main: SubscribedZone;
let buildingPage = '';
let ticker: ReturnType<typeof setInterval> | undefined;
const devices: SimulatedFlowbox[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  main = await subscribedZone(`Balance ${RUN} main`);
  const asCustomer = signedIn(DEMO.customer);
  const zonesApi = main.api.slice(0, main.api.lastIndexOf('/'));
  const kitchen = await asCustomer<{ id: string }>('POST', `${zonesApi}/create`, {
    name: 'Kitchen',
    profile: 'office',
    flowbox_model: 'one_inch_v1',
    water_temperature: 'cold',
  });
  await asCustomer('PUT', `${zonesApi}/${kitchen.id}/subscription/update`, {
    pricing_plan_id: main.planId,
    service_level: 'basic',
  });
  const kitchenZone: SubscribedZone = { ...main, name: 'Kitchen', api: `${zonesApi}/${kitchen.id}` };
  buildingPage = main.page.slice(0, main.page.indexOf('/zone/'));
  const pairs = [
    {
      zone: main,
      serial: `FB-E2E-BM${RUN}`,
      secret: SECRET('main'),
      faults: [{ kind: 'burst_pipe' as const }],
    },
    { zone: kitchenZone, serial: `FB-E2E-BK${RUN}`, secret: SECRET('kitchen'), faults: [] },
  ];
  for (const pair of pairs) {
    const { simulated } = await pairSimulatedDevice(pair.zone, {
      serial: pair.serial,
      factorySecret: pair.secret,
      seed: 29,
      intervalS: 1,
      faults: pair.faults,
    });
    await simulated.start();
    devices.push(simulated);
  }
  ticker = setInterval(() => devices.forEach((device) => device.tick()), 250);
});
afterAll(async () => {
  clearInterval(ticker);
  await Promise.all(devices.map((device) => device.stop()));
  await browser.close();
});

const card = (page: Page) => page.getByTestId('water-balance');

describe('the water balance of a building in the browser', () => {
  it('a manager names the main supply and an alert threshold, and sees the unaccounted water by hour', async () => {
    const { page } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(buildingPage);
    await seen(page, 'No main supply meter is set for this building');
    await expectAccessible(page, 'the building page without a main supply');

    const form = card(page);
    await form.getByLabel('Zone of the main supply meter').selectOption({ label: main.name });
    await form.getByLabel('Alert from (litres a night)').fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    // The shared schema's message, before any call: at least 1 litre.
    await seen(page, 'Number must be greather or equal to 1');
    await form.getByLabel('Alert from (litres a night)').fill('50');
    await form.getByRole('button', { name: 'Save' }).click();
    await seen(page, 'Water balance settings saved');

    await form.getByRole('button', { name: 'By hour' }).click();
    expect(await form.getByRole('button', { name: 'By hour' }).getAttribute('aria-pressed')).toBe('true');
    // The current hour is complete once both flowboxes reported in it: the burst is unaccounted.
    const totals = page.getByTestId('water-balance-totals');
    await expect
      .poll(
        async () => {
          await form.getByRole('button', { name: 'By night' }).click();
          await form.getByRole('button', { name: 'By hour' }).click();
          return totals.textContent();
        },
        { timeout: 30_000, interval: 2000 },
      )
      .toMatch(
        /^Over the complete hours: [\d,.]+\s?L unaccounted of the [\d,.]+\s?L through the main supply \(\d+%\)$/,
      );
    const rows = form.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(24);
    expect(await form.locator('tbody').getByText('Complete').count()).toBeGreaterThan(0);
    // Hours before the flowboxes were paired: nothing measured, not counted as a loss.
    expect(await form.locator('tbody').getByText('not counted').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'the building page with its water balance');
    expect(await sidewaysScrolls(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/water-balance-1280-${RUN}.png`, fullPage: true });

    // The main supply zone's water no longer counts in the building's zones comparison.
    const comparison = page.getByTestId('zones-comparison');
    await expect.poll(() => comparison.getByText(main.name).count(), { timeout: 15_000 }).toBe(0);
  }, 180_000);

  it('reads in French and fits a phone', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, DEMO.customer);
    await page.goto(buildingPage);
    await page.getByRole('button', { name: /^(Français|French), FR$/ }).click();
    await seen(page, 'Bilan d’eau');
    const form = card(page);
    await form.getByRole('button', { name: 'Par heure' }).click();
    await expect
      .poll(() => page.getByTestId('water-balance-totals').textContent(), { timeout: 20_000 })
      .toMatch(/^Sur les heures complètes : /);
    // The main supply saved in the first test is the one chosen, once the building's zones are read.
    const zoneId = main.api.split('/').at(-1)!;
    expect(await form.getByLabel('Zone du compteur de l’alimentation principale').inputValue()).toBe(zoneId);
    await page.setViewportSize({ width: 390, height: 844 });
    await card(page).scrollIntoViewIfNeeded();
    expect(await sidewaysScrolls(page)).toEqual([]);
    await expectAccessible(page, 'the water balance in French on a phone');
    await card(page).screenshot({ path: `/tmp/water-balance-390-fr-${RUN}.png` });
    await page.getByRole('button', { name: /^(English|Anglais), EN$/ }).click();
    await context.close();
  }, 180_000);
});
